import { Tokenizer } from '@huggingface/tokenizers';
import { PieceBpe, type BpeModelJson } from './piece-bpe.js';

/**
 * Llama-2 token ids for WordLlama, word by word with a cache. The Llama-2 tokenizer has no
 * pre-tokenizer: a whole text is one BPE "word", and tokenizers.js runs its merge queue over
 * all of it (about 4 ms for a 1,500-character record, 50 times the hashed embedder). But no
 * Llama-2 token contains "▁" after another character, so no merge ever joins the end of a word
 * to the next "▁": the normalised text ("▁" + text with spaces as "▁") tokenizes as the
 * concatenation of its pieces (a run of "▁" and the characters up to the next "▁"), each
 * tokenized on its own. Pieces repeat (they are words), so each is
 * tokenized once and cached. `segmentationIsExact` checks those assumptions on the loaded
 * tokenizer.json; when one fails (another model), every text goes through `encode` whole.
 * A text containing an added token ("<s>") also goes whole, as the tokenizer splits those first.
 * A piece is encoded by PieceBpe (piece-bpe.ts) from the file's vocabulary and merges; tokenizers.js
 * is built only for what goes whole (its build was ~0.25 s of CPU in every process that loaded
 * WordLlama, docs/testing.md Round 9).
 */
const NORMALIZER = JSON.stringify({
  type: 'Sequence',
  normalizers: [
    { type: 'Prepend', prepend: '\u2581' },
    { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' },
  ],
});

interface TokenizerJson {
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  added_tokens?: { content: string }[];
  model?: BpeModelJson;
}

export function segmentationIsExact(json: TokenizerJson): boolean {
  if (JSON.stringify(json.normalizer) !== NORMALIZER || json.pre_tokenizer != null || json.model?.type !== 'BPE') return false;
  return Object.keys(json.model.vocab ?? {}).every(marksOnlyLead);
}

/** No "\u2581" after another character (/[^\u2581]\u2581/u never matches), without a regex per token (32,000 of them at load). */
function marksOnlyLead(token: string): boolean {
  for (let i = 1; i < token.length; i++) if (token.charCodeAt(i) === 0x2581 && token.charCodeAt(i - 1) !== 0x2581) return false;
  return true;
}

/** Bounded: a long-running server sees unbounded vocabulary; dropping the cache only costs time. */
const CACHE_LIMIT = 200_000;

export class WordLlamaTokenizer {
  private readonly cache = new Map<string, readonly number[]>();
  private readonly addedTokens: readonly string[];
  private readonly bpe: PieceBpe | null;
  private hf: Tokenizer | null = null;

  /** `json`: the parsed tokenizer.json. Throws on a tokenizer neither PieceBpe nor tokenizers.js can build. */
  constructor(
    private readonly json: TokenizerJson,
    segmented = segmentationIsExact(json),
  ) {
    this.addedTokens = (json.added_tokens ?? []).map((t) => t.content);
    this.bpe = segmented ? PieceBpe.from(json.model) : null;
    // Another kind of model is built now, so a file tokenizers.js refuses fails at load as before.
    if (!this.bpe) this.reference();
  }

  /** What Python's `tokenizer.encode(text, add_special_tokens=False).ids` gives. */
  ids(text: string): number[] {
    if (text.length === 0) return [];
    if (!this.bpe || this.addedTokens.some((t) => text.includes(t))) return this.whole(text);
    const ids: number[] = [];
    const normalized = `\u2581${text.replaceAll(' ', '\u2581')}`;
    for (const piece of normalized.match(/\u2581+[^\u2581]*/gu) ?? []) {
      let cached = this.cache.get(piece);
      if (cached === undefined) {
        cached = this.bpe.ids(piece) ?? this.piece(piece);
        if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
        this.cache.set(piece, cached);
      }
      for (const id of cached) ids.push(id);
    }
    return ids;
  }

  /** The reference path: tokenizers.js on the whole text. */
  whole(text: string): number[] {
    return this.reference().encode(text, { add_special_tokens: false }).ids;
  }

  /** tokenizers.js's model on one piece (a piece too long for PieceBpe). */
  private piece(piece: string): number[] {
    const model = this.reference().model!;
    return (model([piece]) as string[]).map((t) => model.tokens_to_ids.get(t) ?? this.bpe!.unkId);
  }

  /** tokenizers.js's tokenizer, built on first use. */
  private reference(): Tokenizer {
    this.hf ??= new Tokenizer(this.json, {});
    return this.hf;
  }
}

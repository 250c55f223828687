/**
 * Byte-pair encoding of one word piece from tokenizer.json's `vocab` and `merges` (Sennrich et
 * al. 2016, as Hugging Face tokenizers run it for Llama-2: byte fallback, unknowns fused), without
 * building the tokenizers.js model. Building that model costs ~0.25 s of CPU at every start
 * (a Map of the 61k merges keyed by JSON.stringify of each pair, the vocabulary copied twice) and
 * its merge loop stringifies every pair it looks up; here a merge's rank is looked up by the
 * merge line itself ("a b") and a token's id in the file's own vocabulary object. WordLlamaTokenizer compares the
 * two on every text of its unit test; the whole-text reference stays tokenizers.js.
 *
 * The merge loop is the textbook one: merge the adjacent pair of lowest rank, the leftmost of
 * equal ranks, until none is in the table. tokenizers.js's priority queue scores a pair by its
 * rank plus its left symbol's position over the word's length, so it pops the same pair.
 */
export interface BpeModelJson {
  type?: string;
  vocab?: Record<string, number>;
  merges?: unknown[];
  unk_token?: string | null;
  byte_fallback?: boolean;
  fuse_unk?: boolean;
  end_of_word_suffix?: string | null;
  continuing_subword_suffix?: string | null;
  ignore_merges?: boolean;
  dropout?: number | null;
}

/** Longer pieces (a run of characters without a space) go to tokenizers.js: the loop here is quadratic in the symbols. */
export const MAX_PIECE_SYMBOLS = 64;

export class PieceBpe {
  private constructor(
    /** The file's own vocabulary object (copying its 32,000 entries into a Map cost ~50 ms). */
    private readonly vocab: Readonly<Record<string, number>>,
    private readonly ranks: ReadonlyMap<string, number>,
    private readonly unkToken: string | null,
    readonly unkId: number,
    private readonly byteFallback: boolean,
    private readonly fuseUnk: boolean,
  ) {}

  /**
   * The encoder for a plain BPE model (merges as "a b" lines, no word suffixes, no dropout, merges
   * not ignored); null for any other, which tokenizers.js then encodes.
   */
  static from(model: BpeModelJson | undefined): PieceBpe | null {
    if (!model || model.type !== 'BPE' || !model.vocab || typeof model.vocab !== 'object' || !Array.isArray(model.merges)) return null;
    if (model.end_of_word_suffix || model.continuing_subword_suffix || model.ignore_merges || model.dropout) return null;
    const ranks = new Map<string, number>();
    for (let i = 0; i < model.merges.length; i++) {
      const m = model.merges[i];
      // tokenizers.js reads a line as "a b".split(' ', 2): a line with a second space would lose its tail there.
      if (typeof m !== 'string' || m.indexOf(' ', m.indexOf(' ') + 1) !== -1) return null;
      ranks.set(m, i);
    }
    const unkToken = model.unk_token ?? null;
    const vocab = model.vocab;
    const unkId = unkToken !== null && Object.hasOwn(vocab, unkToken) ? vocab[unkToken]! : 0;
    return new PieceBpe(vocab, ranks, unkToken, unkId, model.byte_fallback === true, model.fuse_unk === true);
  }

  /** The piece's token ids, as tokenizers.js's `model([piece])` mapped to ids gives them; null: too long, ask tokenizers.js. */
  ids(piece: string): number[] | null {
    const symbols = Array.from(piece);
    if (symbols.length > MAX_PIECE_SYMBOLS) return null;
    for (;;) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const rank = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < best) {
          best = rank;
          at = i;
        }
      }
      if (at < 0) break;
      symbols.splice(at, 2, symbols[at]! + symbols[at + 1]!);
    }
    const out: number[] = [];
    for (const s of symbols) {
      const id = this.idOf(s);
      if (id !== undefined) out.push(id);
      else this.fallback(s, out);
    }
    return this.fuseUnk ? fuseUnknowns(out, this.unkId) : out;
  }

  /** Own keys only: "constructor" is a symbol, not Object.prototype's. */
  private idOf(symbol: string): number | undefined {
    return Object.hasOwn(this.vocab, symbol) ? this.vocab[symbol] : undefined;
  }

  /** A symbol outside the vocabulary: its UTF-8 bytes as <0xXX> tokens when all exist, else the unknown token. */
  private fallback(symbol: string, out: number[]): void {
    if (this.byteFallback) {
      const bytes = [...Buffer.from(symbol, 'utf8')].map((b) => this.idOf(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`));
      if (bytes.every((b) => b !== undefined)) {
        out.push(...(bytes as number[]));
        return;
      }
    }
    if (this.unkToken !== null) out.push(this.unkId);
  }
}

/** A run of unknown tokens is one unknown token (tokenizers.js `fuse_unk`). */
function fuseUnknowns(ids: number[], unkId: number): number[] {
  return ids.filter((id, i) => id !== unkId || i === 0 || ids[i - 1] !== unkId);
}

import { Embeddings } from '@langchain/core/embeddings';
import { ArtifactError } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import { DEFAULT_WORDLLAMA_DIR, loadWordLlamaModel, loadWordLlamaModelSync, type WordLlamaModel } from './wordllama-model.js';
import type { TokenRows } from './token-rows.js';
import type { WordLlamaTokenizer } from './wordllama-tokenize.js';

/**
 * Offline text embedder with real word meaning: WordLlama's l2_supercat static token
 * embeddings (dleemiller/WordLlama, MIT), i.e. a 32000-token Llama-2 vocabulary whose vectors
 * were distilled from the concatenated ("supercat") input-embedding codebooks of several
 * Llama-2-tokenizer LLMs and trained as a sentence embedder. What the Python package does in
 * `WordLlamaInference.embed(texts, norm=True)`, reproduced exactly:
 *   1. tokenize with the Llama-2 tokenizer (no BOS/EOS, no truncation; word by word with a
 *      cache, which gives the same ids: wordllama-tokenize.ts);
 *   2. look each id up in the [32000 x 256] matrix (ids clipped to the vocabulary);
 *   3. average the token vectors (plain mean, no weights);
 *   4. L2-normalise.
 * Matryoshka training makes the first 64 or 128 dims usable alone (`dim` option; Python's
 * `trunc_dim`, applied before pooling). The binary (Hamming) variant is not used.
 * A text with no tokens (empty) gets the zero vector, as HashedEmbedder does.
 */
export const WORDLLAMA_DIMS = [64, 128, 256] as const;
export type WordLlamaDim = (typeof WORDLLAMA_DIMS)[number];

export interface WordLlamaLoadOptions {
  /** Model directory; default `<project>/.models/wordllama` (scripts/fetch-wordllama.sh). */
  dir?: string;
  /** Matryoshka truncation: 64, 128 or 256 (default, the whole vector). */
  dim?: WordLlamaDim;
}

export class WordLlamaEmbedder extends Embeddings {
  readonly dim: number;
  private readonly rows: TokenRows;
  private readonly stride: number;
  private readonly vocab: number;
  private readonly tokenizer: WordLlamaTokenizer;
  /** Where the model came from (named in errors). */
  private readonly dir: string;

  /** Use `WordLlamaEmbedder.load`; the constructor only keeps what it is given (no I/O). */
  constructor(parts: { rows: TokenRows; vocab: number; stride: number; dim: number; tokenizer: WordLlamaTokenizer; dir: string }) {
    super({});
    this.rows = parts.rows;
    this.vocab = parts.vocab;
    this.stride = parts.stride;
    this.dim = parts.dim;
    this.tokenizer = parts.tokenizer;
    this.dir = parts.dir;
  }

  /** Reads the model files; a missing or broken model is an ArtifactError (callers may fall back to hashed n-grams). */
  static async load(opts: WordLlamaLoadOptions = {}): Promise<Result<WordLlamaEmbedder, ArtifactError>> {
    const dir = opts.dir ?? DEFAULT_WORDLLAMA_DIR;
    return WordLlamaEmbedder.from(await loadWordLlamaModel(dir), dir, opts.dim);
  }

  /** `load` with synchronous reads, for code that builds its embedder synchronously (createEmbedder). */
  static loadSync(opts: WordLlamaLoadOptions = {}): Result<WordLlamaEmbedder, ArtifactError> {
    const dir = opts.dir ?? DEFAULT_WORDLLAMA_DIR;
    return WordLlamaEmbedder.from(loadWordLlamaModelSync(dir), dir, opts.dim);
  }

  private static from(model: Result<WordLlamaModel, ArtifactError>, dir: string, dim: number | undefined): Result<WordLlamaEmbedder, ArtifactError> {
    if (!model.ok) return model;
    const { rows, vocab, dim: stride, tokenizer } = model.value;
    return new WordLlamaEmbedder({ rows, vocab, stride, dim: stride, tokenizer, dir }).withDim(dim ?? stride);
  }

  /** The same model truncated to `dim` (Matryoshka), sharing the loaded matrix and tokenizer. */
  withDim(dim: number): Result<WordLlamaEmbedder, ArtifactError> {
    if (!(WORDLLAMA_DIMS as readonly number[]).includes(dim) || dim > this.stride) {
      return err(new ArtifactError(this.dir, `WordLlama dim ${dim} is not available (model has ${this.stride}; choose one of ${WORDLLAMA_DIMS.join(', ')})`));
    }
    if (dim === this.dim) return ok(this);
    return ok(new WordLlamaEmbedder({ rows: this.rows, vocab: this.vocab, stride: this.stride, dim, tokenizer: this.tokenizer, dir: this.dir }));
  }

  /** Identifier recorded with a build, so query time can refuse a mismatched embedder. */
  get id(): string {
    return `wordllama-l2-supercat-${this.dim}`;
  }

  /** Llama-2 token ids of `text` as WordLlama sees them (no special tokens). */
  tokenIds(text: string): number[] {
    return this.tokenizer.ids(text);
  }

  embedVector(text: string): Float32Array {
    const ids = this.tokenIds(text);
    const { dim, rows } = this;
    const matrix = rows.values;
    // Sum in float64: the mean of up to thousands of float16-derived values keeps float32 precision.
    const acc = new Float64Array(dim);
    for (const raw of ids) {
      const id = raw < 0 ? 0 : raw >= this.vocab ? this.vocab - 1 : raw;
      const row = rows.offset(id);
      for (let d = 0; d < dim; d++) acc[d]! += matrix[row + d]!;
    }
    const out = new Float32Array(dim);
    if (ids.length === 0) return out;
    // The mean's 1/n cancels in the L2 normalisation, so only the norm is needed.
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += acc[d]! * acc[d]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let d = 0; d < dim; d++) out[d] = acc[d]! / norm;
    return out;
  }

  /** The batch as unit Float32Arrays (what the build's stages store, without number[] copies). */
  embedVectors(texts: readonly string[]): Float32Array[] {
    return texts.map((t) => this.embedVector(t));
  }

  override async embedQuery(text: string): Promise<number[]> {
    return Array.from(this.embedVector(text));
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => Array.from(this.embedVector(t)));
  }
}

import { Embeddings } from '@langchain/core/embeddings';
import { hashedVector, tokenize } from './hashed-grams.js';

/**
 * Offline, deterministic text embedder: hashed word uni/bi-grams and character
 * trigrams (feature hashing with a sign bit), L2-normalised. Needs no network and no
 * model weights, so dxgraph works with no outside service at all. Because it extends
 * LangChain's `Embeddings`, any LangChain embedding provider can replace it.
 * The hashing itself lives in hashed-grams.ts (allocation-free, over char codes).
 */
export interface HashedEmbedderOptions {
  dim?: number;
  /** Weight of character trigrams relative to words: they absorb spelling variants. */
  charWeight?: number;
}

export { tokenize };

export class HashedEmbedder extends Embeddings {
  readonly dim: number;
  private readonly charWeight: number;

  constructor(opts: HashedEmbedderOptions = {}) {
    super({});
    this.dim = opts.dim ?? 512;
    this.charWeight = opts.charWeight ?? 0.35;
  }

  /** What makes another instance embed identically (a build's worker thread makes its own). */
  get options(): Required<HashedEmbedderOptions> {
    return { dim: this.dim, charWeight: this.charWeight };
  }

  /** Identifier recorded with a build, so query time can refuse a mismatched embedder. */
  get id(): string {
    return `hashed-ngram-v1:${this.dim}`;
  }

  embedVector(text: string): Float32Array {
    return hashedVector(text, this.dim, this.charWeight);
  }

  /** The batch as Float32Arrays: what the build's stages store, without number[] copies. */
  embedVectors(texts: readonly string[]): Float32Array[] {
    return texts.map((t) => hashedVector(t, this.dim, this.charWeight));
  }

  override async embedQuery(text: string): Promise<number[]> {
    return Array.from(this.embedVector(text));
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => Array.from(this.embedVector(t)));
  }
}

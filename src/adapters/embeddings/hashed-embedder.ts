import { Embeddings } from '@langchain/core/embeddings';

/**
 * Offline, deterministic text embedder: hashed word uni/bi-grams and character
 * trigrams (feature hashing with a sign bit), L2-normalised. Needs no network and no
 * model weights, so dxgraph works with no outside service at all. Because it extends
 * LangChain's `Embeddings`, any LangChain embedding provider can replace it.
 */
export interface HashedEmbedderOptions {
  dim?: number;
  /** Weight of character trigrams relative to words: they absorb spelling variants. */
  charWeight?: number;
}

const STOPWORDS = new Set(['a', 'an', 'the', 'of', 'or', 'and', 'to', 'in', 'on', 'at', 'is', 'are', 'do', 'does', 'you', 'your', 'have', 'has', 'with', 'for', 'that', 'this', 'it', 'be', 'any', 'as', 'by', 'from']);

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9.]+/)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter((t) => t.length > 0 && !STOPWORDS.has(t));
}

/** 32-bit FNV-1a: fast, stable across platforms and Node versions. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class HashedEmbedder extends Embeddings {
  readonly dim: number;
  private readonly charWeight: number;

  constructor(opts: HashedEmbedderOptions = {}) {
    super({});
    this.dim = opts.dim ?? 512;
    this.charWeight = opts.charWeight ?? 0.35;
  }

  /** Identifier recorded with a build, so query time can refuse a mismatched embedder. */
  get id(): string {
    return `hashed-ngram-v1:${this.dim}`;
  }

  embedVector(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    const add = (gram: string, w: number) => {
      const h = fnv1a(gram);
      v[h % this.dim]! += h & 0x80000000 ? -w : w;
    };
    const words = tokenize(text);
    for (let i = 0; i < words.length; i++) {
      add(`w:${words[i]}`, 1);
      if (i + 1 < words.length) add(`b:${words[i]}_${words[i + 1]}`, 0.7);
      const padded = ` ${words[i]} `;
      for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, this.charWeight);
    }
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
    return v;
  }

  override async embedQuery(text: string): Promise<number[]> {
    return Array.from(this.embedVector(text));
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => Array.from(this.embedVector(t)));
  }
}

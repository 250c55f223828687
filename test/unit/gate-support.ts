/** Deterministic fakes shared by the gate unit tests (not a test file itself). */
import { Embeddings } from '@langchain/core/embeddings';
import type { ChunkHit, ChunkIndex } from '../../src/gate/chunk-index.js';

/** Embeds a text as a 1-d vector holding its position in a fixed vocabulary of texts. */
export class LookupEmbedder extends Embeddings {
  constructor(private readonly texts: string[]) {
    super({});
  }
  idOf(text: string): number {
    const i = this.texts.indexOf(text);
    if (i < 0) throw new Error(`LookupEmbedder: unknown text ${text}`);
    return i;
  }
  override async embedQuery(text: string): Promise<number[]> {
    return [this.idOf(text)];
  }
  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => [this.idOf(t)]);
  }
}

/** Returns preset hits per query text (decoded through the LookupEmbedder's vocabulary). */
export class PresetChunkIndex implements ChunkIndex {
  readonly calls: { texts: string[]; m: number }[] = [];
  constructor(
    private readonly vocab: string[],
    private readonly hits: Record<string, ChunkHit[]>,
  ) {}
  searchMany(queries: Float32Array[], m: number): ChunkHit[][] {
    const texts = queries.map((q) => this.vocab[q[0]!]!);
    this.calls.push({ texts, m });
    return texts.map((t) => (this.hits[t] ?? []).slice(0, m));
  }
}

export const hit = (recordId: string, n: number, similarity: number): ChunkHit => ({ chunkId: `${recordId}#${n}`, recordId, similarity });

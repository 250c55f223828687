import type { Embeddings } from '@langchain/core/embeddings';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { generate } from '../scale/generate.js';

/** Texts of a DDXPlus directory, and their embeddings in row-major chunks (flat Float32Array per chunk). */
export interface TextRow {
  id: string;
  diagnosis: string;
  text: string;
}

export async function* ddxplusTexts(dir: string): AsyncGenerator<TextRow> {
  const src = new DdxplusSource(dir, { strict: false });
  for await (const r of src.records()) yield { id: r.id, diagnosis: r.diagnosis, text: r.text };
}

/** An embedder that also returns Float32Arrays directly (HashedEmbedder): no number[] round trip. */
type Embedder = Pick<Embeddings, 'embedDocuments'> & { embedVectors?: (texts: readonly string[]) => Float32Array[] };

export async function* embeddedChunks(rows: AsyncIterable<TextRow>, embeddings: Embedder, opts: { chunk: number; dim: number }): AsyncGenerator<{ ids: string[]; vectors: Float32Array }> {
  let ids: string[] = [];
  let texts: string[] = [];
  const flush = async () => {
    const vectors = new Float32Array(texts.length * opts.dim);
    for (let i = 0; i < texts.length; i += 512) {
      const batch = texts.slice(i, i + 512);
      const rowsOut = embeddings.embedVectors ? embeddings.embedVectors(batch) : await embeddings.embedDocuments(batch);
      rowsOut.forEach((v, j) => vectors.set(unit(v), (i + j) * opts.dim));
    }
    const out = { ids, vectors };
    ids = [];
    texts = [];
    return out;
  };
  for await (const r of rows) {
    ids.push(r.id);
    texts.push(r.text);
    if (ids.length >= opts.chunk) yield await flush();
  }
  if (ids.length > 0) yield await flush();
}

function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i]! * out[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < out.length; i++) out[i]! *= s;
  return out;
}

/** Held-out query patients: generated with another seed, so none of them is in the index. */
export async function queryPatients(o: { dir: string; count: number; seed: number }): Promise<TextRow[]> {
  const g = await generate({ size: o.count, outDir: o.dir, seed: o.seed });
  const out: TextRow[] = [];
  for await (const r of ddxplusTexts(g.dir)) out.push(r);
  return out;
}

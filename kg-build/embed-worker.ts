/**
 * The worker thread of embed-off-thread.ts: the offline HashedEmbedder, made here from its
 * options, embeds each batch it is sent and sends the unit vectors back as one transferred
 * row-major Float32Array.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HashedEmbedder, type HashedEmbedderOptions } from '../src/adapters/embeddings/hashed-embedder.js';
import { unitInPlace } from '../src/adapters/embeddings/unit-vectors.js';

const port = parentPort!;
const embedder = new HashedEmbedder(workerData as HashedEmbedderOptions);

port.on('message', (m: { seq: number; texts: string[] }) => {
  try {
    const out = new Float32Array(m.texts.length * embedder.dim);
    embedder.embedVectors(m.texts).forEach((v, i) => out.set(unitInPlace(v), i * embedder.dim));
    port.postMessage({ seq: m.seq, data: out }, [out.buffer]);
  } catch (e) {
    port.postMessage({ seq: m.seq, error: e instanceof Error ? e.message : String(e) });
  }
});

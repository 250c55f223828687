import type { Embeddings } from '@langchain/core/embeddings';
import { HashedEmbedder } from '../src/adapters/embeddings/hashed-embedder.js';
import { embedUnit } from './vectors.js';
import { tsWorker } from '../src/util/ts-worker.js';

/**
 * Unit embeddings of the index stage's record batches, computed on a worker thread when the
 * embedder is the offline HashedEmbedder (its options are plain numbers, so the worker makes
 * an identical one), so the main thread parses the spool and writes rows and the lexical index
 * while the next batch is embedded: at 1M records the two are each a minute of one core here.
 * Any other embedder (a remote API, already asynchronous) is called in place, and so is the
 * offline one below OFF_THREAD_FROM records: starting the worker (tsx's loader, ~0.6 s) costs more
 * than it saves on a small build, and tests build many small KGs. Same vectors either way
 * (test/unit/kg-build-embed-off-thread.test.ts).
 */
export interface BatchEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const ENTRY = new URL('./embed-worker.ts', import.meta.url);

export const OFF_THREAD_FROM = 20_000;

export function batchEmbedder(embeddings: Embeddings, records: number): BatchEmbedder {
  if (!(embeddings instanceof HashedEmbedder) || records < OFF_THREAD_FROM) return { embed: (texts) => embedUnit(embeddings, texts), close: async () => {} };
  const dim = embeddings.dim;
  const worker = tsWorker(ENTRY, { workerData: embeddings.options });
  const waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: unknown) => void }>();
  let seq = 0;
  let failed: unknown = null;
  const failAll = (e: unknown) => {
    failed ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('message', (m: { seq: number; data?: Float32Array; error?: string }) => {
    const w = waiting.get(m.seq);
    if (!w) return;
    waiting.delete(m.seq);
    if (m.data) w.resolve(Array.from({ length: m.data.length / dim }, (_, i) => m.data!.subarray(i * dim, (i + 1) * dim)));
    else w.reject(new Error(`embedding worker: ${m.error}`));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`embedding worker exited (code ${code})`)));
  return {
    embed(texts) {
      if (failed !== null) return Promise.reject(failed);
      const id = seq++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ seq: id, texts: [...texts] });
      });
    },
    async close() {
      failed ??= new Error('embedding worker closed');
      await worker.terminate();
    },
  };
}

import { createRequire } from 'node:module';
import { SetupError } from '../../errors.js';
import type { Index as NativeIndexClass, MetricType as NativeMetricType } from 'faiss-node';

/**
 * The faiss-node binding, loaded lazily. faiss-node is CommonJS and sets its exports
 * at run time, so ESM named imports cannot see them; `createRequire` is the reliable way.
 * Lazy so that importing the adapter costs nothing (and fails with a clear message)
 * when the native binary is not built yet.
 */
export type NativeIndex = InstanceType<typeof NativeIndexClass>;

interface FaissModule {
  Index: typeof NativeIndexClass;
  IndexFlatIP: new (d: number) => NativeIndex;
  MetricType: typeof NativeMetricType;
}

let cached: FaissModule | null = null;

export function faiss(): FaissModule {
  if (cached === null) {
    // libgomp reads this once, when the binding loads. Searches run one request at a time on
    // the event-loop thread, where OpenMP workers only add spin-waits: HNSW k=10 over 10k
    // vectors measured 10-12 ms wall (4.3-4.9 ms CPU) with the default threads, 1.0 ms
    // (0.5 ms CPU) with one. A build wanting parallel IVF training / HNSW adds sets it.
    process.env.OMP_NUM_THREADS ??= '1';
    const require = createRequire(import.meta.url);
    try {
      cached = require('faiss-node') as FaissModule;
    } catch (cause) {
      throw new SetupError(
        'faiss-node native binding is not available: run `bash scripts/build-faiss-node.sh` (or `npm run setup`)',
        { cause },
      );
    }
  }
  return cached;
}

let float32: boolean | null = null;

/**
 * Vectors as the loaded binding takes them. dxgraph's build of the binding
 * (scripts/patch-faiss-node.py) reads a Float32Array in place; the stock 0.5.x binding
 * (a prebuilt one) only takes number[], converted element by element (~0.5 us per float,
 * ~30 s per 100k 512-d vectors), so there the copy is made. Probed once on a 2-d index.
 */
export function nativeVectors(v: Float32Array): number[] {
  if (float32 === null) {
    try {
      const probe = new (faiss().IndexFlatIP)(2);
      probe.add(new Float32Array([1, 0, 0, 1]) as unknown as number[]);
      float32 = probe.ntotal() === 2;
    } catch {
      float32 = false; // the stock binding throws a TypeError: "must be an Array"
    }
  }
  return float32 ? (v as unknown as number[]) : toNumberArray(v);
}

/** Copy a Float32Array slice into the plain number[] the 0.5.x binding accepts. */
export function toNumberArray(v: Float32Array): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]!;
  return out;
}

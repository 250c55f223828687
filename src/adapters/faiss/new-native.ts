import { patchHnswParams, patchIvfNprobe, patchIvfQuantizerHnsw } from './index-params.js';
import { defaultNprobe, HNSW_DEFAULTS, HNSW_QUANTIZER_FROM_LISTS, quantizerEfSearch } from './index-sizing.js';
import { faiss, type NativeIndex } from './native.js';
import type { IndexKind } from './types.js';

export interface CreateIndexOptions {
  kind: IndexKind;
  dim: number;
  /** IVF only: number of inverted lists (build() derives it from the data size). */
  nlist?: number;
  /** HNSW only: graph degree M. */
  hnswM?: number;
  /** HNSW only: candidate list size while inserting (graph quality vs build time). */
  hnswEfConstruction?: number;
  /** HNSW only: candidate list size per search (FAISS uses max(efSearch, k)). */
  hnswEfSearch?: number;
  /** IVF only: inverted lists scanned per search (default: defaultNprobe(nlist)). */
  nprobe?: number;
  /** IVF only: how a query finds its lists (default: 'hnsw' from HNSW_QUANTIZER_FROM_LISTS lists). */
  quantizer?: 'flat' | 'hnsw';
}

/** An empty native index as `opts` describe it, its efSearch / efConstruction / nprobe patched into its serialized form (index-params.ts). */
export function newNative(opts: CreateIndexOptions): NativeIndex {
  const f = faiss();
  const ip = f.MetricType.METRIC_INNER_PRODUCT;
  if (opts.kind === 'flat') return new f.IndexFlatIP(opts.dim);
  if (opts.kind === 'hnsw') {
    const buf = f.Index.fromFactory(opts.dim, `HNSW${opts.hnswM ?? HNSW_DEFAULTS.m},Flat`, ip).toBuffer();
    patchHnswParams(buf, { efConstruction: opts.hnswEfConstruction ?? HNSW_DEFAULTS.efConstruction, efSearch: opts.hnswEfSearch ?? HNSW_DEFAULTS.efSearch });
    return f.Index.fromBuffer(buf);
  }
  const nlist = opts.nlist ?? 1;
  const nprobe = opts.nprobe ?? defaultNprobe(nlist);
  const hnswQuantizer = (opts.quantizer ?? (nlist >= HNSW_QUANTIZER_FROM_LISTS ? 'hnsw' : 'flat')) === 'hnsw';
  const buf = f.Index.fromFactory(opts.dim, hnswQuantizer ? `IVF${nlist}_HNSW32,Flat` : `IVF${nlist},Flat`, ip).toBuffer();
  patchIvfNprobe(buf, nprobe);
  if (hnswQuantizer) patchIvfQuantizerHnsw(buf, { efSearch: quantizerEfSearch(nprobe) });
  return f.Index.fromBuffer(buf);
}

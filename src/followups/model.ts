/**
 * The prevalence model the follow-up engine reasons with: diseases, features with
 * provenance, and smoothed P(feature | disease). It is read from any KG-like object
 * (the Neo4j snapshot, a `DiagnosticKg`, or one estimated from training records in
 * memory), so the simulation and the server share one code path.
 */
import type { DemographicModel } from './demographics.js';
import type { AnswerType } from '../domain/record.js';
import { observedRecords } from '../domain/prevalence.js';
import { denseRow, RowCache, sparseRow, valueAt, type SparseRow } from './sparse-rows.js';

/** The narrow view of a KG the follow-ups need (a `DiagnosticKg` satisfies it). */
export interface FollowupKg {
  diseases: readonly { id: string; name: string; recordCount: number }[];
  features: readonly FollowupFeature[];
  manifestations: readonly { diseaseId: string; featureId: string; prevalence: number; count: number }[];
}

/** A feature node with its provenance (FeatureNode's fields that questions are built from). */
export interface FollowupFeature {
  id: string;
  text: string;
  code: string | null;
  valueCode: string | null;
  question: string | null;
  valueText: string | null;
  antecedent: boolean | null;
  /** The answer type the build recorded for the feature's source question (KG property), when it did. */
  answerType?: AnswerType | null;
}

export interface ModelOptions {
  /** Additive (Laplace/Lidstone) smoothing: an unseen feature gets alpha / (n_d + 2·alpha). */
  alpha: number;
  /** Records assumed for a disease with none (e.g. only LLM-estimated edges), so its prevalences still count. */
  pseudoRecords: number;
  /** Bytes of dense per-disease rows (counts, P(f | d)) kept cached; the counts themselves are stored sparse. */
  rowCacheBytes: number;
}

export const DEFAULT_MODEL_OPTIONS: ModelOptions = { alpha: 0.1, pseudoRecords: 10, rowCacheBytes: 64 * 2 ** 20 };

export class FollowupModel {
  readonly diseases: readonly { id: string; name: string }[];
  readonly features: readonly FollowupFeature[];
  readonly logPrior: Float64Array;
  /** Effective record count per disease (the smoothing denominator). */
  readonly recordCounts: Float64Array;
  readonly alpha: number;
  readonly demographics: DemographicModel | null;
  private readonly counts = new Map<string, SparseRow>();
  private readonly featureById = new Map<string, FollowupFeature>();
  private readonly diseaseIdx = new Map<string, number>();
  private readonly rowCache: RowCache;
  private readonly categoricalCache = new Map<string, Float64Array[]>();
  /** Per disease: the features it has an edge to (the follow-up rankers' live vocabulary). */
  private readonly diseaseFeatures: string[][];
  /** Per disease: log P and log(1 − P) of a feature it never showed, α / (n_d + 2α) (the value `bernoulli` gives it). */
  readonly logUnseen: { present: Float64Array; absent: Float64Array };

  constructor(kg: FollowupKg, opts: Partial<ModelOptions> & { demographics?: DemographicModel | null } = {}) {
    const o = { ...DEFAULT_MODEL_OPTIONS, ...opts };
    this.alpha = o.alpha;
    this.demographics = opts.demographics ?? null;
    this.diseases = kg.diseases.map((d) => ({ id: d.id, name: d.name }));
    kg.diseases.forEach((d, i) => this.diseaseIdx.set(d.id, i));
    const D = kg.diseases.length;
    this.recordCounts = Float64Array.from(kg.diseases, (d) => (d.recordCount > 0 ? d.recordCount : o.pseudoRecords));
    // Prior from training frequency, Laplace-smoothed so unseen diseases stay possible.
    const total = kg.diseases.reduce((s, d) => s + d.recordCount, 0);
    this.logPrior = Float64Array.from(kg.diseases, (d) => Math.log((d.recordCount + 1) / (total + D)));
    this.rowCache = new RowCache(o.rowCacheBytes);
    for (const f of kg.features) this.featureById.set(f.id, f);
    this.diseaseFeatures = kg.diseases.map(() => []);
    const unseen = Float64Array.from(this.recordCounts, (n) => (0 + this.alpha) / (n + 2 * this.alpha));
    this.logUnseen = { present: unseen.map(Math.log), absent: unseen.map((p) => Math.log(1 - p)) };
    const rows = new Map<string, Map<number, number>>();
    for (const m of kg.manifestations) {
      const i = this.diseaseIdx.get(m.diseaseId);
      if (i === undefined || !this.featureById.has(m.featureId)) continue;
      let row = rows.get(m.featureId);
      if (!row) rows.set(m.featureId, (row = new Map()));
      this.diseaseFeatures[i]!.push(m.featureId);
      // Edges without a record count (LLM estimates) contribute prevalence × effective n.
      // An edge estimated over fewer records than the disease has (notes, domain/prevalence.ts) counts as its rate × n.
      const n = this.recordCounts[i]!;
      row.set(i, m.count > 0 ? (observedRecords(m.count, m.prevalence, n) === n ? m.count : m.prevalence * n) : m.prevalence * n);
    }
    for (const [f, row] of rows) this.counts.set(f, sparseRow(row));
    this.features = kg.features.filter((f) => this.counts.has(f.id));
  }

  diseaseIndex(id: string): number | undefined {
    return this.diseaseIdx.get(id);
  }

  /** Features with an edge to disease `d` (others have a zero count there). */
  featuresOf(d: number): readonly string[] {
    return this.diseaseFeatures[d] ?? [];
  }

  feature(id: string): FollowupFeature | undefined {
    return this.featureById.get(id);
  }

  /** Raw co-occurrence count of a feature per disease (zeros when never seen); a dense copy, cached within the byte bound. */
  countsOf(featureId: string): Float64Array {
    return this.rowCache.get(featureId, () => denseRow(this.counts.get(featureId), this.diseases.length), 'counts');
  }

  /** The count of a feature in one disease, without a dense row. */
  countAt(featureId: string, d: number): number {
    return valueAt(this.counts.get(featureId), d);
  }

  /** The diseases with an edge to the feature and their counts (ascending disease index); undefined: none. */
  nonzeroCounts(featureId: string): SparseRow | undefined {
    return this.counts.get(featureId);
  }

  /** P(f | d) of one disease, the value `bernoulli` holds, without building or caching the row. */
  bernoulliAt(featureId: string, d: number): number {
    return this.bernoulliOfCount(this.countAt(featureId, d), d);
  }

  /** (min(count, n_d) + α) / (n_d + 2α): the one expression every P(f | d) of the model comes from. */
  bernoulliOfCount(c: number, d: number): number {
    return (Math.min(c, this.recordCounts[d]!) + this.alpha) / (this.recordCounts[d]! + 2 * this.alpha);
  }

  /** Smoothed Bernoulli P(f | d) per disease: (count + alpha) / (n_d + 2·alpha). */
  bernoulli(featureId: string): Float64Array {
    return this.rowCache.get(featureId, () => {
      const c = denseRow(this.counts.get(featureId), this.diseases.length);
      return Float64Array.from(c, (ci, i) => this.bernoulliOfCount(ci, i));
    }, 'p');
  }

  /**
   * log P(f | d) ('present'), log(1 − P(f | d)) ('absent') or their difference ('logit') per disease, from
   * the `bernoulli` row: the same numbers as taking the logs there, kept in the row cache (within its byte
   * bound) because every turn of a consultation takes them again for the same few questions.
   */
  logBernoulli(featureId: string, kind: 'present' | 'absent' | 'logit'): Float64Array {
    return this.rowCache.get(featureId, () => {
      const p = this.bernoulli(featureId);
      if (kind === 'present') return p.map(Math.log);
      if (kind === 'absent') return p.map((x) => Math.log(1 - x));
      return p.map((x) => Math.log(x) - Math.log(1 - x));
    }, kind);
  }

  /**
   * Categorical P(value | d) over mutually exclusive options plus "none of them":
   * (count_v + alpha) / (n_d + alpha·(K + 1)); the last row is the "none" outcome.
   */
  categorical(featureIds: readonly string[]): Float64Array[] {
    const key = featureIds.join('|');
    const cached = this.categoricalCache.get(key);
    if (cached) return cached;
    const D = this.diseases.length;
    const K = featureIds.length;
    const counts = featureIds.map((id) => denseRow(this.counts.get(id), D));
    const none = new Float64Array(D);
    const out = counts.map(() => new Float64Array(D));
    for (let i = 0; i < D; i++) {
      const n = this.recordCounts[i]!;
      const denom = n + this.alpha * (K + 1);
      let seen = 0;
      counts.forEach((r, k) => {
        seen += r[i]!;
        out[k]![i] = (r[i]! + this.alpha) / denom;
      });
      none[i] = (Math.max(0, n - seen) + this.alpha) / denom;
    }
    const rows = [...out, none];
    this.categoricalCache.set(key, rows);
    return rows;
  }

  /** Number of diseases linked to the feature (its degree in the KG, MedRAG eq. 15). */
  degree(featureId: string): number {
    const c = this.counts.get(featureId);
    return c ? c.val.reduce((s, v) => s + (v > 0 ? 1 : 0), 0) : 0;
  }
}

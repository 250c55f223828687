import type { KgSnapshot } from '../query/kg-snapshot.js';

/**
 * Bernoulli naive-Bayes log-likelihood with Laplace smoothing: the offline evidence
 * reasoner's core score (not a MedRAG formula; MedRAG leaves reasoning to the LLM).
 *
 *   p(f|d)   = (count(f,d) + α) / (n_d + 2α)          smoothed prevalence of f in d
 *   p0(d)    = α / (max(n_d, n_min) + 2α)             a feature d's records never showed
 *   score(d) = log prior(d)
 *            + Σ_{f reported present} w_f · log p(f|d)
 *            + Σ_{f reported absent}  w_f · log(1 - p(f|d))
 *            + λ · Σ_{f not reported} log(1 - p(f|d))   ("unreported" = weak absence)
 *
 * λ = 1 is the full Bernoulli model (every unreported feature counts as absent, true for
 * a complete DDXPlus record); a short free-text description says little about what is
 * absent, so λ is scaled by how complete it is (`effectiveUnreportedWeight`). The
 * unreported sum is computed as λ·(base(d) − Σ_reported log(1−p)), with base(d) the
 * all-absent sum precomputed once per snapshot, so a query costs O(reported × diseases).
 *
 * n_min: with one training record a disease's unseen features are 30x likelier than with 60
 * (α/(n+2α)), so a one-record disease won whenever free-text findings fit nothing well
 * (Bronchiolitis, n = 1, for travel histories); counting it as n_min records removes that.
 */
export interface NbParams {
  alpha: number;
  unreportedWeight: number;
  /** Exponent of the completeness scaling of λ (effectiveUnreportedWeight). */
  unreportedPower?: number;
  /** Training records a disease counts as at least, for unseen features (n_min above). */
  minRecords?: number;
}

export interface NbTables {
  /** Per disease, aligned with `snapshot.manifestations[d].features`. */
  logP: Float64Array[];
  log1mP: Float64Array[];
  /** Per disease: log p and log(1-p) for a feature the disease has never shown. */
  logP0: Float64Array;
  log1mP0: Float64Array;
  /** Per disease: Σ over all features of log(1 - p(f|d)). */
  allAbsent: Float64Array;
  logPrior: Float64Array;
  /** Mean number of features per training record: how long a "complete" description is. */
  meanFeaturesPerRecord: number;
}

const EPS = 1e-4;
const cache = new WeakMap<KgSnapshot, Map<string, NbTables>>();

export function nbTables(s: KgSnapshot, alpha: number, minRecords = 0): NbTables {
  const perSnap = cache.get(s) ?? new Map<string, NbTables>();
  cache.set(s, perSnap);
  const key = `${alpha}|${minRecords}`;
  const hit = perSnap.get(key);
  if (hit) return hit;
  const D = s.diseases.length;
  const F = s.features.length;
  const t: NbTables = {
    logP: [], log1mP: [], logP0: new Float64Array(D), log1mP0: new Float64Array(D),
    allAbsent: new Float64Array(D), logPrior: new Float64Array(D), meanFeaturesPerRecord: 0,
  };
  let edgeCounts = 0;
  for (let d = 0; d < D; d++) {
    const n = s.diseases[d]!.recordCount;
    const m = s.manifestations[d]!;
    const p0 = n > 0 ? alpha / (Math.max(n, minRecords) + 2 * alpha) : EPS;
    const lp = new Float64Array(m.features.length);
    const l1 = new Float64Array(m.features.length);
    let sum = (F - m.features.length) * Math.log(1 - p0);
    for (let i = 0; i < m.features.length; i++) {
      // Counted edges (EHR) are smoothed; estimated edges (LLM, no count) are clamped.
      const p = n > 0 && m.counts[i]! > 0 ? (m.counts[i]! + alpha) / (n + 2 * alpha) : clamp(m.prevalence[i]!);
      lp[i] = Math.log(p);
      l1[i] = Math.log(1 - p);
      sum += l1[i]!;
      edgeCounts += m.counts[i]!;
    }
    t.logP.push(lp);
    t.log1mP.push(l1);
    t.logP0[d] = Math.log(p0);
    t.log1mP0[d] = Math.log(1 - p0);
    t.allAbsent[d] = sum;
    t.logPrior[d] = Math.log((n + 1) / (s.totalRecords + D));
  }
  t.meanFeaturesPerRecord = s.totalRecords > 0 ? edgeCounts / s.totalRecords : 0;
  perSnap.set(key, t);
  return t;
}

const clamp = (p: number) => Math.min(1 - EPS, Math.max(EPS, p));

/**
 * λ scaled by the description's completeness c = reported / typical record length, as λ·c^power
 * (capped at λ). power 1 was linear; a clinician's five-finding note (c ≈ 0.25) says almost
 * nothing about what is absent, so the default power 2 keeps its λ near 0 while a complete
 * record (c ≈ 1) keeps the full Bernoulli model (docs/query.md, free-text figures).
 */
export function effectiveUnreportedWeight(t: NbTables, reportedWeight: number, lambda: number, power = 1): number {
  if (t.meanFeaturesPerRecord <= 0) return lambda;
  return lambda * Math.min(1, reportedWeight / t.meanFeaturesPerRecord) ** power;
}

/** One reported feature: its index, polarity and weight (a fuzzy match counts partly). */
export interface ReportedFeature {
  feature: number;
  present: boolean;
  weight: number;
}

/** Per-disease score plus each reported feature's contribution (for the evidence lines). */
export function nbScore(s: KgSnapshot, t: NbTables, d: number, reported: ReportedFeature[], params: NbParams): { score: number; contributions: Float64Array } {
  const m = s.manifestations[d]!;
  const lam = params.unreportedWeight;
  let score = t.logPrior[d]! + lam * t.allAbsent[d]!;
  const contributions = new Float64Array(reported.length);
  reported.forEach((r, i) => {
    const pos = m.position.get(r.feature);
    const lp = pos === undefined ? t.logP0[d]! : t.logP[d]![pos]!;
    const l1 = pos === undefined ? t.log1mP0[d]! : t.log1mP[d]![pos]!;
    // Remove the feature from the "unreported" sum, then add its observed term.
    const c = r.weight * ((r.present ? lp : l1) - lam * l1);
    contributions[i] = c;
    score += c;
  });
  return { score, contributions };
}

/** Probability-like normalisation of log scores (softmax). */
export function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((x) => Math.exp(x - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

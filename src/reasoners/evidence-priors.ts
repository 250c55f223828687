import { AGE_BANDS, ageBand, logCategorical } from '../domain/demographics.js';
import type { ReasonerContext } from './reasoner.js';
import { topK } from './top-k.js';

/**
 * Soft log-priors the evidence reasoner adds to the naive-Bayes score, each from one
 * part of the retrieval trace:
 *   votes:  γ · log((v_s + 1) / (V + S))      Laplace-smoothed share of the subcategory's votes (eq. 12-13)
 *   kNN:    κ · log(share_d + 0.1)            similarity-weighted share of the top-k neighbours diagnosed d
 *   key differences: ω · (P_in − P_siblings)  for each reported key-difference feature (+ present, − absent)
 *   profiles: π · cos(x_q, c_d)              the description's TF-IDF row against disease d's notes (nearest centroid, src/query/disease-profiles.ts)
 *   demographics: δ · [log P(age band | d) + log P(sex | d)]  Lidstone-smoothed counts on the :Disease node
 */
export interface PriorWeights {
  voteWeight: number;
  knnWeight: number;
  keyDifferenceWeight: number;
  /** Weight of the disease-profile cosine (0: ignore the profiles). */
  profileWeight?: number;
  /** Weight of the age/sex likelihood (0: ignore the patient's age and sex). */
  demographicWeight?: number;
}

export interface Priors {
  total: Float64Array;
  /** Per disease, short evidence lines (KG / record labels only, no patient text). */
  lines: string[][];
}

export function contextPriors(ctx: ReasonerContext, w: PriorWeights): Priors {
  const s = ctx.snapshot;
  const D = s.diseases.length;
  const total = new Float64Array(D);
  const lines: string[][] = Array.from({ length: D }, () => []);

  const V = ctx.votes.reduce((a, v) => a + v.votes, 0);
  if (V > 0 && w.voteWeight > 0) {
    const bySub = new Map(ctx.votes.map((v) => [v.subcategoryId, v.votes] as const));
    for (let d = 0; d < D; d++) {
      const sub = s.subcategories[s.diseaseSubcategory[d]!];
      const v = sub ? (bySub.get(sub.id) ?? 0) : 0;
      total[d]! += w.voteWeight * Math.log((v + 1) / (V + s.subcategories.length));
      if (v > 0) lines[d]!.push(`subcategory ${sub!.name}: ${v.toFixed(1)} of ${V.toFixed(1)} votes`);
    }
  }

  const simSum = ctx.retrieved.reduce((a, r) => a + Math.max(0, r.similarity), 0);
  if (simSum > 0 && w.knnWeight > 0) {
    const share = new Float64Array(D);
    const count = new Int32Array(D);
    for (const r of ctx.retrieved) {
      const d = r.diseaseId ? s.diseaseIndex.get(r.diseaseId) : undefined;
      if (d === undefined) continue;
      share[d]! += Math.max(0, r.similarity) / simSum;
      count[d]!++;
    }
    for (let d = 0; d < D; d++) {
      total[d]! += w.knnWeight * Math.log(share[d]! + 0.1);
      if (count[d]! > 0) lines[d]!.push(`${count[d]} of ${ctx.retrieved.length} similar records diagnosed ${s.diseases[d]!.name}`);
    }
  }

  if (w.keyDifferenceWeight > 0) {
    const polarity = new Map(ctx.matches.map((m) => [m.featureId, m.polarity] as const));
    for (const t of ctx.differencesKg) {
      if (t.relation !== 'HAS_KEY_DIFFERENCE' || t.weight === null || !t.subjectId || !t.objectId) continue;
      const d = s.diseaseIndex.get(t.subjectId);
      const pol = polarity.get(t.objectId);
      if (d === undefined || pol === undefined) continue;
      const sign = pol === 'present' ? 1 : -1;
      total[d]! += w.keyDifferenceWeight * sign * t.weight;
      lines[d]!.push(`key difference (${pol}): ${t.object}`);
    }
  }
  const pw = w.profileWeight ?? 0;
  if (pw > 0 && ctx.profiles) addProfiles(total, lines, ctx, pw);
  const dw = w.demographicWeight ?? 0;
  if (dw > 0) addDemographics(total, s.diseases, ctx.input, dw);
  return { total, lines };
}

/** π · cosine per disease; evidence lines for the few most similar profiles only (a line per disease of a large KG would be waste). */
function addProfiles(total: Float64Array, lines: string[][], ctx: ReasonerContext, weight: number): void {
  const sims = ctx.profiles!;
  for (let d = 0; d < total.length; d++) if ((sims[d] ?? 0) > 0) total[d]! += weight * sims[d]!;
  // topK, not a sort of every disease per query (a hospital KG has thousands).
  for (const d of topK(sims, PROFILE_LINES)) if (sims[d]! > 0) lines[d]!.push(`words of the description like the notes of ${ctx.snapshot.diseases[d]!.name}: cosine ${sims[d]!.toFixed(2)}`);
}

const PROFILE_LINES = 10;

/** log((count + 1) / (n + k)) of the patient's age band and sex per disease; diseases without counts get 0 (no opinion). */
function addDemographics(total: Float64Array, diseases: ReasonerContext['snapshot']['diseases'], p: { age: number | null; sex: 'M' | 'F' | null }, weight: number): void {
  const cat = (row: readonly number[], k: number) => logCategorical(row, k);
  diseases.forEach((d, i) => {
    if (p.age !== null && p.age >= 0 && d.ageBands && d.ageBands.length === AGE_BANDS.length) total[i]! += weight * cat(d.ageBands, ageBand(p.age));
    if (p.sex !== null && d.sexCounts && d.sexCounts.length === 2) total[i]! += weight * cat(d.sexCounts, p.sex === 'M' ? 0 : 1);
  });
}

import type { KgSnapshot } from '../query/kg-snapshot.js';
import { alternativeGroups, diseasePairs, nbScore, reportedTerms, sumOf, unseenPair, type NbQuery, type NbTables, type ReportedFeature } from './scoring-naive-bayes.js';

/**
 * Every disease's naive-Bayes score (scoring-naive-bayes.ts) at the cost of what the query
 * touches, exactly. A disease whose records never showed any reported feature, and whose source
 * declares none of them, prices each one at its p0(d) (α / (max(n_d, n_min) + 2α)), so its
 * reported terms depend on d only through p0: score(d) = log prior(d) + λ·base(d) + g(p0(d)), with
 * g computed once per distinct p0 of the query (a few dozen at 1,000 diagnoses, against one
 * Map lookup, exp and log per disease and feature before). Diseases sharing a feature
 * (snapshot.featureDiseases, plus the inverse of the declared-unseen maps) are scored in full.
 * Same formula, same summation order: the scores equal the exhaustive ones bit for bit
 * (test/unit/reasoner-sparse-scoring.test.ts).
 */
const declaredByCache = new WeakMap<NbTables, Map<number, number[]>>();

/** Feature → diseases whose source declares it without a record showing it (per tables, built once). */
function declaredBy(t: NbTables): Map<number, number[]> {
  let out = declaredByCache.get(t);
  if (out) return out;
  out = new Map();
  t.declaredUnseen.forEach((unseen, d) => {
    for (const f of unseen.keys()) {
      const list = out!.get(f) ?? [];
      list.push(d);
      out!.set(f, list);
    }
  });
  declaredByCache.set(t, out);
  return out;
}

/** Diseases that show or declare at least one reported feature (1 = touched). */
export function touchedDiseases(s: KgSnapshot, t: NbTables, reported: readonly ReportedFeature[]): Uint8Array {
  const touched = new Uint8Array(s.diseases.length);
  const declared = declaredBy(t);
  for (const r of reported) {
    for (const d of s.featureDiseases[r.feature] ?? []) touched[d] = 1;
    for (const d of declared.get(r.feature) ?? []) touched[d] = 1;
  }
  return touched;
}

/** Every disease's score, snapshot order; `exhaustive` scores each disease in full (the reference). */
export function nbScoresAll(s: KgSnapshot, t: NbTables, reported: readonly ReportedFeature[], q: NbQuery, exhaustive = false): Float64Array {
  const D = s.diseases.length;
  const out = new Float64Array(D);
  if (exhaustive) {
    for (let d = 0; d < D; d++) out[d] = nbScore(s, t, d, reported, q).score;
    return out;
  }
  const touched = touchedDiseases(s, t, reported);
  const R = reported.length;
  const [lp, l1, observed, terms] = [new Float64Array(R), new Float64Array(R), new Float64Array(R), new Float64Array(R)];
  const groups = q.mixture ? alternativeGroups(reported) : null;
  // g(p0) keyed by log p0; log(1 − p0) is stored beside it and checked, so a key collision cannot mix two p0.
  const byP0 = new Map<number, { l1: number; g: number }>();
  for (let d = 0; d < D; d++) {
    if (touched[d]) {
      // nbScore's arithmetic in the same order, on reused buffers.
      diseasePairs(s, t, d, reported, lp, l1);
      reportedTerms(t, reported, q, groups, lp, l1, observed, terms);
      out[d] = t.logPrior[d]! + q.unreportedWeight * t.allAbsent[d]! + sumOf(terms);
      continue;
    }
    // p0 and the notes' p0 are both functions of max(n_d, n_min) alone, so p0 still keys g.
    const lp0 = t.logP0[d]!;
    const l10 = t.log1mP0[d]!;
    let hit = byP0.get(lp0);
    if (!hit || hit.l1 !== l10) {
      for (let i = 0; i < R; i++) unseenPair(t, d, reported[i]!.feature, i, lp, l1);
      reportedTerms(t, reported, q, groups, lp, l1, observed, terms);
      hit = { l1: l10, g: sumOf(terms) };
      byP0.set(lp0, hit);
    }
    out[d] = t.logPrior[d]! + q.unreportedWeight * t.allAbsent[d]! + hit.g;
  }
  return out;
}

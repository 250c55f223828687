import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { NbQuery, NbTables, ReportedFeature } from './scoring-naive-bayes.js';

// One query's naive-Bayes terms over a snapshot's tables (the formulas: scoring-naive-bayes.ts).

/**
 * λ scaled by the description's completeness c = reported / typical record length, as λ·c^power
 * (capped at λ). power 1 was linear; a clinician's five-finding note (c ≈ 0.25) says almost
 * nothing about what is absent, so the default power 2 keeps its λ near 0 while a complete
 * record (c ≈ 1) keeps the full Bernoulli model (docs/query.md, free-text figures).
 */
export function effectiveUnreportedWeight(t: NbTables, reportedWeight: number, lambda: number, power = 1): number {
  return lambda * completeness(t, reportedWeight) ** power;
}

/** How complete a description is: reported weight / mean features per training record, at most 1 (1 when the KG has no records). */
export function completeness(t: NbTables, reportedWeight: number): number {
  return t.meanFeaturesPerRecord <= 0 ? 1 : Math.min(1, reportedWeight / t.meanFeaturesPerRecord);
}

/** Per-disease score plus each reported feature's contribution (for the evidence lines). */
export function nbScore(s: KgSnapshot, t: NbTables, d: number, reported: readonly ReportedFeature[], q: NbQuery): { score: number; contributions: Float64Array } {
  const R = reported.length;
  const [lp, l1, observed, contributions] = [new Float64Array(R), new Float64Array(R), new Float64Array(R), new Float64Array(R)];
  diseasePairs(s, t, d, reported, lp, l1);
  reportedTerms(t, reported, q, q.mixture ? alternativeGroups(reported) : null, lp, l1, observed, contributions);
  return { score: t.logPrior[d]! + q.unreportedWeight * t.allAbsent[d]! + sumOf(contributions), contributions };
}

/** Disease d's log p and log(1 − p) of each reported feature: its edge, else its declared pδ, else p0. */
export function diseasePairs(s: KgSnapshot, t: NbTables, d: number, reported: readonly ReportedFeature[], lp: Float64Array, l1: Float64Array): void {
  const m = s.manifestations[d]!;
  for (let i = 0; i < reported.length; i++) {
    const f = reported[i]!.feature;
    const pos = m.position.get(f);
    if (pos !== undefined) {
      lp[i] = t.logP[d]![pos]!;
      l1[i] = t.log1mP[d]![pos]!;
      continue;
    }
    const declared = t.declaredUnseen[d]!.get(f);
    if (declared) {
      lp[i] = declared[0];
      l1[i] = declared[1];
    } else unseenPair(t, d, f, i, lp, l1);
  }
}

/** Disease d's log p0 and log(1 − p0) of feature f (the notes' p0 for a feature learnt from notes only), into slot i. */
export function unseenPair(t: NbTables, d: number, f: number, i: number, lp: Float64Array, l1: Float64Array): void {
  const coded = t.unreportedMask[f] === 1;
  const b = t.notesBackoff;
  if (!coded && b && b.denominator[d]! > 0) {
    const p = b.numerator[f]! / b.denominator[d]!;
    lp[i] = Math.log(p);
    l1[i] = Math.log(1 - p);
    return;
  }
  lp[i] = coded ? t.logP0[d]! : t.logP0Notes[d]!;
  l1[i] = coded ? t.log1mP0[d]! : t.log1mP0Notes[d]!;
}

/**
 * Each reported feature's term for one disease (into `contributions`), given the disease's log p
 * and log(1 − p) of each (`lp`, `l1`): its observed term minus its share of the unreported sum,
 * alternatives mixed. Buffers come from the caller, so scoring thousands of diseases allocates
 * nothing per disease (scoring-sparse.ts).
 */
export function reportedTerms(t: NbTables, reported: readonly ReportedFeature[], q: NbQuery, groups: readonly number[][] | null, lp: Float64Array, l1: Float64Array, observed: Float64Array, contributions: Float64Array): void {
  const lam = q.unreportedWeight;
  const eps = q.noise ?? 0;
  for (let i = 0; i < reported.length; i++) {
    const r = reported[i]!;
    let obs = r.present ? lp[i]! : l1[i]!;
    if (eps > 0) {
      const pm = (1 - eps) * Math.exp(lp[i]!) + eps * t.marginal[r.feature]!;
      obs = Math.log(r.present ? pm : 1 - pm);
    }
    observed[i] = obs;
    // Remove the feature from the "unreported" sum (if it is in it), then add its observed term.
    contributions[i] = r.weight * (obs - lam * l1[i]! * t.unreportedShare[r.feature]!);
  }
  if (groups) mixAlternatives(groups, reported, observed, contributions);
}

/** Sum in index order (one order everywhere, so the sparse and exhaustive scores agree bit for bit). */
export function sumOf(xs: Float64Array): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
}

/** The alternatives groups (ReportedFeature.group) with two or more members, as indices into `reported`. */
export function alternativeGroups(reported: readonly ReportedFeature[]): number[][] {
  const groups = new Map<number, number[]>();
  reported.forEach((r, i) => {
    if (r.group === undefined) return;
    const g = groups.get(r.group) ?? [];
    g.push(i);
    groups.set(r.group, g);
  });
  return [...groups.values()].filter((idx) => idx.length >= 2);
}

/** Replaces each alternatives group's members' log p by the log of their mean probability. */
function mixAlternatives(groups: readonly number[][], reported: readonly ReportedFeature[], observed: Float64Array, contributions: Float64Array): void {
  for (const idx of groups) {
    const max = Math.max(...idx.map((i) => observed[i]!));
    const logMean = max + Math.log(idx.reduce((a, i) => a + Math.exp(observed[i]! - max), 0) / idx.length);
    for (const i of idx) contributions[i] = contributions[i]! + reported[i]!.weight * (logMean - observed[i]!);
  }
}

/** Probability-like normalisation of log scores (softmax). */
export function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((x) => Math.exp(x - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

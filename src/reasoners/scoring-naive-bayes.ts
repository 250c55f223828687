import type { KgSnapshot } from '../query/kg-snapshot.js';
import { declaredUnseen } from './scoring-declared.js';
import { observedRecords } from '../domain/prevalence.js';
import { notesBackoffTables } from './notes-backoff.js';

/**
 * Bernoulli naive-Bayes log-likelihood with Laplace smoothing: the offline evidence
 * reasoner's core score (not a MedRAG formula; MedRAG leaves reasoning to the LLM).
 *
 *   p(f|d)   = (count(f,d) + α) / (n_d + 2α)          smoothed prevalence of f in d
 *   p0(d)    = α / (max(n_d, n_min) + 2α)             a feature d's records never showed
 *   pδ(f,d)  = 1 / (n_d + 2)                          never shown, but declared for d by the source (scoring-declared.ts)
 *   p̃(f|d)   = (1 − ε)·p(f|d) + ε·q(f)                 a finding may be unrelated to d (background rate q)
 *   score(d) = log prior(d)
 *            + Σ_{f reported present} w_f · log p̃(f|d)
 *            + Σ_{f reported absent}  w_f · log(1 − p̃(f|d))
 *            + λ · Σ_{f not reported} log(1 - p(f|d))   ("unreported" = weak absence)
 *
 * λ = 1 is the full Bernoulli model (every unreported feature counts as absent, true for
 * a complete DDXPlus record); a feature learnt from notes only (FeatureNode.fromNotes) weighs in
 * the unreported sum with γ_notes·λ only (`notesUnreportedWeight`, default 0.1): a note that does
 * not mention a finding says little about it, but a disease whose notes nearly all name a finding
 * (croup's barking cough) is a little less likely for a description silent on it, which is what a
 * bag of words' length-normalised cosine also counts. Chosen on the dev checks only (docs/notes.md):
 * γ 0.05-0.15 alike, naive Bayes alone +1 / +5 / +1 cases over 0 on vignettes dev → dev-b, dev-b →
 * dev and the notes-pc thirds; 1 (the full Bernoulli model) loses 3 / 1 / 2. A short free-text
 * description says little about what is absent, so λ is scaled by how complete it is (`effectiveUnreportedWeight`). The
 * unreported sum is computed as λ·(base(d) − Σ_reported log(1−p)), with base(d) the
 * all-absent sum precomputed once per snapshot; scoring-sparse.ts then scores every disease that
 * shows none of the reported features at once per p0 (their terms depend on d only through p0).
 *
 * n_min: with one training record a disease's unseen features are 30x likelier than with 60
 * (α/(n+2α)), so a one-record disease won whenever free-text findings fit nothing well
 * (Bronchiolitis, n = 1, for travel histories); counting it as n_min records removes that.
 *
 * ε (`noise`): a free-text finding the disease's records never showed (asthma's "worse at
 * night", absent from DDXPlus asthma) is not impossible, it may be a comorbidity or a
 * finding the sample does not model; the reasoner scales ε with how incomplete the
 * description is, so a complete coded record keeps the plain model.
 *
 * α_notes (`notesAlpha`): a feature learnt from notes only is smoothed with its own, larger α. A
 * disease has a handful of notes where DDXPlus gives it hundreds of records, and a note mentions
 * what struck its writer, so "never mentioned in this disease's five notes" is weak evidence of
 * absence: with the coded α (0.03) a risk factor none of stable angina's notes named cost it 5
 * nats. Chosen on the dev checks only (docs/notes.md): 0.2-0.5 gave the same figures, +2 cases on
 * both (vignette dev → dev-b, notes-pc thirds) over 0.03. Coded features keep α, so a DDXPlus
 * KG's figures are untouched.
 *
 * Alternatives (`mixture`): the features one finding may mean ("chest" → upper, lower or
 * side of the chest) are one observation, scored as log of their mean probability.
 */
export interface NbParams {
  alpha: number;
  /** α of the features learnt from notes only (FeatureNode.fromNotes); absent = α. */
  notesAlpha?: number;
  /** γ_notes: the share of λ an unreported feature learnt from notes only weighs with (absent = 0: not at all). */
  notesUnreportedWeight?: number;
  unreportedWeight: number;
  /** Exponent of the completeness scaling of λ (effectiveUnreportedWeight). */
  unreportedPower?: number;
  /** Training records a disease counts as at least, for unseen features (n_min above). */
  minRecords?: number;
  /** Price a declared-but-unseen feature with pδ (scoring-declared.ts) instead of p0. */
  declared?: boolean;
  /** m of the background backoff of features learnt from notes only (notes-backoff.ts; absent or 0: α alone). */
  notesBackoff?: number;
  /** Diseases with this many records or more are not backed off (notes-backoff.ts; absent: all are). */
  notesBackoffBelow?: number;
}

/** Per-query scoring knobs (the tables stay per snapshot). */
export interface NbQuery {
  unreportedWeight: number;
  /** ε of the background mixture, already scaled by the description's incompleteness. */
  noise?: number;
  /** Score a finding's alternatives (ReportedFeature.group) as one observation. */
  mixture?: boolean;
}

export interface NbTables {
  /** Per disease, aligned with `snapshot.manifestations[d].features`. */
  logP: Float64Array[];
  log1mP: Float64Array[];
  /** Per disease: log p and log(1-p) for a feature the disease has never shown. */
  logP0: Float64Array;
  log1mP0: Float64Array;
  /** The same for a feature learnt from notes only (smoothed with α_notes). */
  logP0Notes: Float64Array;
  log1mP0Notes: Float64Array;
  /** Per disease: Σ over all features of log(1 - p(f|d)). */
  allAbsent: Float64Array;
  logPrior: Float64Array;
  /** Mean number of features per training record: how long a "complete" description is. */
  meanFeaturesPerRecord: number;
  /** Per disease: features its source declares that its records never showed → [log p, log(1-p)]. */
  declaredUnseen: Map<number, readonly [number, number]>[];
  /** Per feature: its share of all training records (the background rate q(f)). */
  marginal: Float64Array;
  /** Per feature: 1 for a coded feature, 0 for one learnt from notes only. */
  unreportedMask: Uint8Array;
  /** Per feature: the weight of its log(1 − p) in the unreported sum (1 coded; γ_notes for features learnt from notes only). */
  unreportedShare: Float64Array;
  /** With a notes backoff (notes-backoff.ts): per feature learnt from notes only, α_notes + m·q(f), and per disease n + 2α_notes + m (null: none). */
  notesBackoff: { numerator: Float64Array; denominator: Float64Array } | null;
}

const EPS = 1e-4;
const cache = new WeakMap<KgSnapshot, Map<string, NbTables>>();

export function nbTables(s: KgSnapshot, p: Pick<NbParams, 'alpha' | 'notesAlpha' | 'notesUnreportedWeight' | 'minRecords' | 'declared' | 'notesBackoff' | 'notesBackoffBelow'>): NbTables {
  const { alpha, minRecords = 0, declared = false, notesUnreportedWeight: gamma = 0, notesBackoff: mB = 0, notesBackoffBelow: below = Infinity } = p;
  const notesAlpha = p.notesAlpha ?? alpha;
  const perSnap = cache.get(s) ?? new Map<string, NbTables>();
  cache.set(s, perSnap);
  const key = `${alpha}|${notesAlpha}|${gamma}|${minRecords}|${declared}|${mB}|${below}`;
  const hit = perSnap.get(key);
  if (hit) return hit;
  const D = s.diseases.length;
  const F = s.features.length;
  const t: NbTables = {
    logP: [], log1mP: [], logP0: new Float64Array(D), log1mP0: new Float64Array(D), logP0Notes: new Float64Array(D), log1mP0Notes: new Float64Array(D),
    allAbsent: new Float64Array(D), logPrior: new Float64Array(D), meanFeaturesPerRecord: 0, marginal: new Float64Array(F), declaredUnseen: [],
    unreportedMask: Uint8Array.from(s.features, (f) => (f.fromNotes ? 0 : 1)),
    unreportedShare: Float64Array.from(s.features, (f) => (f.fromNotes ? gamma : 1)),
    notesBackoff: null,
  };
  const backoff = mB > 0 ? notesBackoffTables(s, { notesAlpha, m: mB, minRecords, below }) : null;
  t.notesBackoff = backoff;
  const codedF = t.unreportedMask.reduce((a, x) => a + x, 0);
  const notesF = s.features.length - codedF;
  for (let d = 0; d < D; d++) {
    const n = s.diseases[d]!.recordCount;
    const m = s.manifestations[d]!;
    const p0 = n > 0 ? alpha / (Math.max(n, minRecords) + 2 * alpha) : EPS;
    const p0Notes = n > 0 ? notesAlpha / (Math.max(n, minRecords) + 2 * notesAlpha) : EPS;
    const lp = new Float64Array(m.features.length);
    const l1 = new Float64Array(m.features.length);
    let counted = 0;
    for (let i = 0; i < m.features.length; i++) counted += t.unreportedMask[m.features[i]!]!;
    // The features d never showed, each at p0 (coded) or, weighed by γ_notes, at p0 of the notes.
    const backedOff = backoff !== null && backoff.denominator[d]! > 0;
    let sum = (codedF - counted) * Math.log(1 - p0) + (backedOff ? gamma * backoff.unseenLog1m(d, m.features) : gamma * (notesF - (m.features.length - counted)) * Math.log(1 - p0Notes));
    for (let i = 0; i < m.features.length; i++) {
      // Counted edges (EHR) are smoothed over the records that could show them (domain/prevalence.ts);
      // estimated edges (LLM, triples, the text view: no count) are clamped.
      const coded = t.unreportedMask[m.features[i]!] === 1;
      const a = coded ? alpha : notesAlpha;
      const counted = n > 0 && m.counts[i]! > 0;
      const p = counted && !coded && backedOff ? backoff.p(m.features[i]!, m.counts[i]!, observedRecords(m.counts[i]!, m.prevalence[i]!, n)) : counted ? (m.counts[i]! + a) / (observedRecords(m.counts[i]!, m.prevalence[i]!, n) + 2 * a) : clamp(m.prevalence[i]!);
      lp[i] = Math.log(p);
      l1[i] = Math.log(1 - p);
      sum += t.unreportedShare[m.features[i]!]! * l1[i]!;
      t.marginal[m.features[i]!]! += m.counts[i]!;
    }
    const unseen = declared ? declaredUnseen(s, d) : new Map<number, readonly [number, number]>();
    for (const [, l1u] of unseen.values()) sum += l1u - Math.log(1 - p0);
    t.declaredUnseen.push(unseen);
    t.logP.push(lp);
    t.log1mP.push(l1);
    t.logP0[d] = Math.log(p0);
    t.log1mP0[d] = Math.log(1 - p0);
    t.logP0Notes[d] = Math.log(p0Notes);
    t.log1mP0Notes[d] = Math.log(1 - p0Notes);
    t.allAbsent[d] = sum;
    t.logPrior[d] = Math.log((n + 1) / (s.totalRecords + D));
  }
  t.meanFeaturesPerRecord = typicalRecordLength(s);
  for (let f = 0; f < F; f++) t.marginal[f] = s.totalRecords > 0 ? Math.min(1 - EPS, Math.max(EPS, t.marginal[f]! / s.totalRecords)) : EPS;
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
  return lambda * completeness(t, reportedWeight) ** power;
}

/** How many features a complete record reports: the snapshot's own figure, else the edges' counts per record. */
export function typicalRecordLength(s: Pick<KgSnapshot, 'manifestations' | 'totalRecords' | 'meanFeaturesPerRecord'>): number {
  if (s.meanFeaturesPerRecord !== undefined) return s.meanFeaturesPerRecord;
  if (s.totalRecords <= 0) return 0;
  let edgeCounts = 0;
  for (const m of s.manifestations) for (let i = 0; i < m.counts.length; i++) edgeCounts += m.counts[i]!;
  return edgeCounts / s.totalRecords;
}

/** How complete a description is: reported weight / mean features per training record, at most 1 (1 when the KG has no records). */
export function completeness(t: NbTables, reportedWeight: number): number {
  return t.meanFeaturesPerRecord <= 0 ? 1 : Math.min(1, reportedWeight / t.meanFeaturesPerRecord);
}

/**
 * One reported feature: its index, polarity and weight (a fuzzy match counts partly). Features
 * of one `group` are alternatives for one finding ("sharp" = a sharp or a knife-stroke pain).
 */
export interface ReportedFeature {
  feature: number;
  present: boolean;
  weight: number;
  /** The finding (or alternatives key) this feature came from; absent: a group of its own. */
  group?: number;
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

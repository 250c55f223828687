import type { KgSnapshot } from '../query/kg-snapshot.js';
import { declaredUnseen } from './scoring-declared.js';
import { knowledgeUnseen } from './scoring-knowledge.js';
import { observedRecords } from '../domain/prevalence.js';
import { notesBackoffTables } from './notes-backoff.js';
import type { NbParams, NbTables } from './scoring-naive-bayes.js';

// The naive-Bayes tables of one snapshot (the formulas: scoring-naive-bayes.ts), built once per
// snapshot and parameter set and cached with the snapshot; the per-query terms read them.

const EPS = 1e-4;
const cache = new WeakMap<KgSnapshot, Map<string, NbTables>>();

export function nbTables(s: KgSnapshot, p: Pick<NbParams, 'alpha' | 'notesAlpha' | 'notesUnreportedWeight' | 'minRecords' | 'declared' | 'notesBackoff' | 'notesBackoffBelow' | 'knowledge'>): NbTables {
  const { alpha, minRecords = 0, declared = false, notesUnreportedWeight: gamma = 0, notesBackoff: mB = 0, notesBackoffBelow: below = Infinity } = p;
  const notesAlpha = p.notesAlpha ?? alpha;
  const perSnap = cache.get(s) ?? new Map<string, NbTables>();
  cache.set(s, perSnap);
  const key = `${alpha}|${notesAlpha}|${gamma}|${minRecords}|${declared}|${mB}|${below}|${p.knowledge ?? 0}`;
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
    // The price the sum above counted for a feature d never showed: p0, the notes' p0 or their backoff.
    const unseenPrice = (f: number) => (t.unreportedMask[f] === 1 ? p0 : backedOff ? backoff.numerator[f]! / backoff.denominator[d]! : p0Notes);
    const unseen = declared ? declaredUnseen(s, d) : new Map<number, readonly [number, number]>();
    if (p.knowledge) knowledgeUnseen(s, d, { alpha, m: p.knowledge, basePrice: unseenPrice }, unseen);
    // A priced pair replaces its feature's term in the sum, with the feature's share (γ_notes in a text view).
    for (const [f, [, l1u]] of unseen) sum += t.unreportedShare[f]! * (l1u - Math.log(1 - unseenPrice(f)));
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

/** How many features a complete record reports: the snapshot's own figure, else the edges' counts per record. */
export function typicalRecordLength(s: Pick<KgSnapshot, 'manifestations' | 'totalRecords' | 'meanFeaturesPerRecord'>): number {
  if (s.meanFeaturesPerRecord !== undefined) return s.meanFeaturesPerRecord;
  if (s.totalRecords <= 0) return 0;
  let edgeCounts = 0;
  for (const m of s.manifestations) for (let i = 0; i < m.counts.length; i++) edgeCounts += m.counts[i]!;
  return edgeCounts / s.totalRecords;
}

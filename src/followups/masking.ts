/**
 * MedRAG's masking protocol (Appendix B.3, eq. 18): hide the top-r share of a patient's
 * findings ranked by discriminability sigma, start from the rest, ask follow-ups
 * (the simulated patient answers from the full record), and measure top-1 again.
 */
import type { NormalizedRecord } from '../domain/record.js';
import type { FollowupEngine, PatientState } from './engine.js';
import type { RankerName } from './ranker.js';
import type { FeatureIdScheme } from './record-kg.js';
import { runDialogue } from './simulate.js';

export const MASK_RATES = [0.33, 0.66, 1] as const;

export interface MaskingRow {
  rate: number;
  ranker: RankerName;
  patients: number;
  /** Top-1 with every finding known and no questions (the reference). */
  unmasked: number;
  /** follow-ups asked → top-1 accuracy (0 = masked, before any question). */
  accuracy: Record<number, number>;
}

/** The record's known features, most discriminative (highest sigma = lowest degree) first. */
export function featuresBySigma(engine: FollowupEngine, rec: NormalizedRecord, scheme: FeatureIdScheme): string[] {
  const ids = [...new Set(rec.findings.map((f) => scheme.featureId(f)))].filter((id) => engine.model.feature(id) !== undefined);
  return ids.sort((a, b) => engine.model.degree(a) - engine.model.degree(b) || a.localeCompare(b));
}

export function maskedState(engine: FollowupEngine, rec: NormalizedRecord, rate: number, opts: { scheme: FeatureIdScheme; demographics: boolean }): PatientState {
  const ranked = featuresBySigma(engine, rec, opts.scheme);
  const masked = Math.round(rate * ranked.length);
  return {
    evidence: ranked.slice(masked).map((featureId) => ({ featureId, present: true })),
    answers: [],
    demographics: opts.demographics ? { age: rec.age, sex: rec.sex } : null,
    prior: null,
    candidateDiseases: null,
  };
}

export function runMasking(
  engine: FollowupEngine,
  records: readonly NormalizedRecord[],
  opts: { rate: number; ranker: RankerName; followUps: readonly number[]; scheme: FeatureIdScheme; truth: (id: string) => string; demographics: boolean },
): MaskingRow {
  const accuracy: Record<number, number> = {};
  let unmasked = 0;
  const hits = new Map<number, number>(opts.followUps.map((k) => [k, 0]));
  for (const rec of records) {
    const full = maskedState(engine, rec, 0, opts);
    const ref = engine.assess(full, { ranker: opts.ranker, questions: 0, differential: 1, confidence: 1 });
    if (ref.differential[0]?.diseaseId === opts.truth(rec.id)) unmasked++;
    const run = runDialogue(engine, rec, maskedState(engine, rec, opts.rate, opts), { ranker: opts.ranker, checkpoints: opts.followUps, confidence: 1, scheme: opts.scheme });
    for (const k of opts.followUps) if (run.topAt.get(k) === opts.truth(rec.id)) hits.set(k, hits.get(k)! + 1);
  }
  for (const [k, h] of hits) accuracy[k] = h / Math.max(1, records.length);
  return { rate: opts.rate, ranker: opts.ranker, patients: records.length, unmasked: unmasked / Math.max(1, records.length), accuracy };
}

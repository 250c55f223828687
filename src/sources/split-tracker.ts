import { createHash } from 'node:crypto';
import type { SplitSideCounts, SplitSummary } from '../domain/artifacts.js';
import { createSplitAssigner, type SplitKey, type SplitOptions, type SplitPart } from './split.js';

/**
 * A split applied to a stream, counting what went where: the build keeps the train part and
 * records the counts with its artifacts (BuildManifest.split); `dxgraph eval` applies the same
 * split to the same source to get the held-out part back and reports the same counts.
 */
export interface SplitTracker {
  /** The record's side; asking twice in a row for the same record gives one answer and one count. */
  part(key: SplitKey): SplitPart;
  summary(): SplitSummary;
  /** Hashed keys of the patients on one side (patientDigest), for the evaluation's leakage check. */
  patientDigests(side: SplitPart): string[];
}

/**
 * A patient key as the build keeps it: a truncated SHA-256 of the key under the split's seed, so
 * the artifacts can tell "this test patient was in training" without listing patient keys.
 */
export function patientDigest(seed: number, patient: string): string {
  return createHash('sha256').update(`patient\u0000${seed}\u0000${patient}`).digest('hex').slice(0, 24);
}

export function createSplitTracker(o: SplitOptions): SplitTracker {
  const assign = createSplitAssigner(o);
  const counts = { train: { records: 0, loose: 0 }, test: { records: 0, loose: 0 } };
  const patients = { train: new Set<string>(), test: new Set<string>() };
  // The build's note stage and its scan both ask about each record, one right after the other.
  let last: { id: string; part: SplitPart } | null = null;
  return {
    part(key) {
      if (last?.id === key.id) return last.part;
      const part = assign(key);
      last = { id: key.id, part };
      counts[part].records++;
      if (key.patient) patients[part].add(key.patient);
      else counts[part].loose++;
      return part;
    },
    summary() {
      const withPatient = patients.train.size + patients.test.size > 0;
      const without = counts.train.loose + counts.test.loose > 0;
      const side = (p: SplitPart): SplitSideCounts => ({ records: counts[p].records, patients: patients[p].size + counts[p].loose });
      return { testFraction: o.testFraction, seed: o.seed, stratify: o.stratify === true, unit: withPatient ? (without ? 'mixed' : 'patient') : 'record', train: side('train'), test: side('test') };
    },
    patientDigests(side) {
      return [...patients[side]].map((p) => patientDigest(o.seed, p)).sort();
    },
  };
}

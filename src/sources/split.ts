import { createHash } from 'node:crypto';
import { InputError } from '../errors.js';

export type SplitPart = 'train' | 'test';

export interface SplitOptions {
  seed: number;
  /** Share of patients in the test part, in (0, 1). */
  testFraction: number;
  /**
   * Stratify by diagnosis: within each diagnosis, every 1/testFraction-th patient (from a
   * seed-dependent offset) goes to test, so each diagnosis gets its share. This makes the
   * predicate stateful: apply one instance to the whole source in its (deterministic) order.
   */
  stratify?: boolean;
}

/**
 * What the split looks at: the patient (NormalizedRecord.patient: all of a patient's records go
 * to one side), else the record id (a source without patients: each record is its own patient),
 * and, when stratifying, the diagnosis.
 */
export interface SplitKey {
  id: string;
  diagnosis: string;
  patient?: string | null;
}

/** The unit a record is split by: its patient when the source names one, else the record itself. */
export const splitUnitOf = (key: SplitKey): string => key.patient ?? key.id;

export function validateSplitOptions(o: SplitOptions): void {
  if (!Number.isInteger(o.seed)) throw new InputError(`--seed must be an integer, got ${o.seed}`, { field: 'seed' });
  if (!(o.testFraction > 0 && o.testFraction < 1)) throw new InputError(`--test-fraction must be between 0 and 1 (exclusive), got ${o.testFraction}`, { field: 'test-fraction' });
}

/** A uniform number in [0, 1) from (seed, key): the same on every machine and run. */
export function hashUnit(seed: number, key: string): number {
  const h = createHash('sha256').update(`${seed}\u0000${key}`).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

/** Unstratified split: a unit (patient, else record id) is in test iff hash(seed, unit) < testFraction. Stateless. */
export function splitPartOf(id: string, o: SplitOptions): SplitPart {
  return hashUnit(o.seed, id) < o.testFraction ? 'test' : 'train';
}

/** A stateful assigner covering both parts (stratified or not); call it once per record in source order. */
export function createSplitAssigner(o: SplitOptions): (key: SplitKey) => SplitPart {
  validateSplitOptions(o);
  if (!o.stratify) return (key) => splitPartOf(splitUnitOf(key), o);
  const seenPerDiagnosis = new Map<string, number>();
  // A patient seen before keeps its side; a new one is placed by the diagnosis of its first record.
  const patients = new Map<string, SplitPart>();
  return (key) => {
    const known = key.patient ? patients.get(key.patient) : undefined;
    if (known) return known;
    const part = stratifiedPart(key.diagnosis);
    if (key.patient) patients.set(key.patient, part);
    return part;
  };
  function stratifiedPart(diagnosis: string): SplitPart {
    const k = seenPerDiagnosis.get(diagnosis) ?? 0;
    seenPerDiagnosis.set(diagnosis, k + 1);
    const offset = hashUnit(o.seed, `diagnosis:${diagnosis}`);
    // Systematic sampling: the k-th patient of a diagnosis is in test when the running quota steps up.
    return Math.floor((k + 1) * o.testFraction + offset) > Math.floor(k * o.testFraction + offset) ? 'test' : 'train';
  }
}

/** A predicate keeping one part, usable by other stages (build on train, evaluate on test). */
export function splitFilter(o: SplitOptions & { part: SplitPart }): (key: SplitKey) => boolean {
  const assign = createSplitAssigner(o);
  return (key) => assign(key) === o.part;
}

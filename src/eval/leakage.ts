/**
 * Leakage check (patient-level split): a test patient must not be in the retrieval
 * index. Ids are source-qualified with the file name (`ddxplus:<file>:<row>`), so the
 * two parts written by `dxgraph split` can never share an id; the check therefore also
 * compares a content fingerprint (diagnosis + the record's text, lines sorted: age,
 * sex and every finding), computed the same way from the index's own rows
 * (records.jsonl keeps each row's diagnosis and text).
 */
import { createHash } from 'node:crypto';
import { DxError } from '../errors.js';
import { patientDigest } from '../sources/split-tracker.js';

export class LeakageError extends DxError {
  readonly idOverlap: number;
  readonly contentOverlap: number;
  readonly patientOverlap: number;
  constructor(message: string, counts: { idOverlap: number; contentOverlap: number; patientOverlap?: number }) {
    super('LEAKAGE', message);
    this.idOverlap = counts.idOverlap;
    this.contentOverlap = counts.contentOverlap;
    this.patientOverlap = counts.patientOverlap ?? 0;
  }
}

/** Order-insensitive content hash of a record: the same patient read from any file gives the same value. */
export function recordFingerprint(r: { diagnosis: string; text: string }): string {
  const lines = r.text.split('\n').map((l) => l.trim().toLowerCase()).filter((l) => l !== '').sort();
  return createHash('sha256').update(`${r.diagnosis.trim().toLowerCase()}\u0000${lines.join('\n')}`).digest('hex');
}

export interface IndexedRecords {
  ids: ReadonlySet<string>;
  fingerprints: ReadonlySet<string>;
}

export function indexedRecords(rows: Iterable<{ id: string; diagnosis: string; text: string }>): IndexedRecords {
  const ids = new Set<string>();
  const fingerprints = new Set<string>();
  for (const r of rows) {
    ids.add(r.id);
    fingerprints.add(recordFingerprint(r));
  }
  return { ids, fingerprints };
}

export interface LeakageReport {
  tested: number;
  idOverlap: number;
  contentOverlap: number;
  /** Test records whose patient the build trained on (builds that recorded their training patients). */
  patientOverlap: number;
  /** A few overlapping test record ids (ids only, never record text). */
  examples: string[];
}

/** The build's training patients, as digests under the seed of its split (src/sources/split-tracker.ts). */
export interface TrainPatients {
  seed: number;
  digests: ReadonlySet<string>;
}

export function findLeakage(test: Iterable<{ id: string; diagnosis: string; text: string; patient?: string | null }>, index: IndexedRecords, train: TrainPatients | null = null): LeakageReport {
  const report: LeakageReport = { tested: 0, idOverlap: 0, contentOverlap: 0, patientOverlap: 0, examples: [] };
  for (const r of test) {
    report.tested++;
    const byId = index.ids.has(r.id);
    const byContent = index.fingerprints.has(recordFingerprint(r));
    const byPatient = train !== null && !!r.patient && train.digests.has(patientDigest(train.seed, r.patient));
    if (byId) report.idOverlap++;
    if (byContent) report.contentOverlap++;
    if (byPatient) report.patientOverlap++;
    if ((byId || byContent || byPatient) && report.examples.length < 5) report.examples.push(r.id);
  }
  return report;
}

/**
 * Throws LeakageError when any test record is in the index (by id, or by content unless allowed)
 * or its patient was trained on. `heldOut`: the records are the held-out side of the build's own
 * patient-level split, so an equal content is another patient's equal record, not leakage.
 */
export function assertNoLeakage(r: LeakageReport, opts: { allowContentDuplicates: boolean; heldOut?: boolean }): void {
  const content = opts.allowContentDuplicates || opts.heldOut ? 0 : r.contentOverlap;
  if (r.idOverlap === 0 && content === 0 && r.patientOverlap === 0) return;
  const patients = r.patientOverlap > 0 ? `, ${r.patientOverlap} belong to a patient the build trained on` : '';
  throw new LeakageError(
    `refusing to evaluate: ${r.idOverlap} of ${r.tested} test records have their id in the retrieval index${patients} and ${r.contentOverlap} match an indexed record's content ` +
      `(e.g. ${r.examples.join(', ')}). Build on the train part of a patient-level split (dxgraph split, or build --test-fraction/--seed) and evaluate on the test part ` +
      '(`dxgraph eval --test <the same source>` takes it from the build, or pass the split\'s --test-fraction/--seed)' +
      (r.idOverlap === 0 && r.patientOverlap === 0 ? '; if the source genuinely holds identical patients, pass --allow-content-duplicates' : ''),
    { idOverlap: r.idOverlap, contentOverlap: r.contentOverlap, patientOverlap: r.patientOverlap },
  );
}

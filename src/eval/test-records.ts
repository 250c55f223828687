/**
 * The test patients `dxgraph eval` reads (issue 25): the test source, reduced to the held-out
 * side of the build's split when it is the build's own source (held-out.ts), with each record's
 * notes read into findings by the note reader the build uses (so the simulated patient and the
 * full protocol see the note concepts a training record would have given), and an optional
 * seeded sample (test-set.ts).
 */
import type { BuildManifest } from '../domain/artifacts.js';
import type { NormalizedRecord } from '../domain/record.js';
import { emptyNotesReport, readRecordNotes } from '../../kg-build/read-notes-stage.js';
import { loadNoteReader } from '../../kg-build/note-reader.js';
import { openSource } from '../sources/source-spec.js';
import type { SourceSpec } from '../sources/types.js';
import { chooseHeldOut, heldOutRecords, heldOutTracker, trainPatients } from './held-out.js';
import type { EvalHeldOut, TestSourceReport } from './run-eval.js';
import { loadTestSet } from './test-set.js';

export interface TestRecordsOptions {
  strict: boolean;
  limit: number | null;
  /** Seed of the --limit sample. */
  seed: number;
  manifest: BuildManifest;
  dataDir: string;
  /** --test-fraction / --seed given on the command line (null: not given). */
  split: { testFraction: number | null; seed: number | null };
}

export interface TestRecords {
  records: NormalizedRecord[];
  heldOut: EvalHeldOut | null;
  testSource: TestSourceReport;
}

export async function readTestRecords(spec: SourceSpec, opts: TestRecordsOptions): Promise<TestRecords> {
  const source = await openSource(spec, { strict: opts.strict });
  try {
    const plan = chooseHeldOut(opts.manifest, source.description, opts.split);
    const tracker = plan ? heldOutTracker(plan) : null;
    const stream = tracker ? heldOutRecords(source.records(), tracker) : source.records();
    const notes = emptyNotesReport();
    // Loaded at the first test record with notes: a coded-only source never pays for the vocabularies.
    const reader = async () => (await loadNoteReader({ sourceConcepts: (await source.codedConcepts?.()) ?? [] })).deps;
    const records = await loadTestSet(readRecordNotes(stream, reader, notes), { limit: opts.limit, seed: opts.seed });
    const s = source.summary();
    const testSource: TestSourceReport = {
      description: source.description, rows_read: s.rowsRead, records: s.recordsEmitted, skipped: s.skipped, skipped_by_reason: s.skippedByReason, notes_read: notes.records,
    };
    if (!plan || !tracker) return { records, heldOut: null, testSource };
    // The build's training patients are digested under the build's seed, whatever split the flags name.
    const digests = await trainPatients(opts.dataDir, opts.manifest);
    const train = digests && opts.manifest.split ? { seed: opts.manifest.split.seed, digests } : null;
    return { records, heldOut: { plan, seen: tracker.summary(), train }, testSource };
  } finally {
    await source.close();
  }
}

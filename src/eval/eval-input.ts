/**
 * What `dxgraph eval` reads before it opens anything it evaluates: the current build's
 * manifest, the test records (test-records.ts) and the leakage check against the build's
 * record rows (leakage.ts, indexed-records-file.ts). An evaluation that must be refused (a
 * test set the build trained on, an empty held-out part) is refused here, without Neo4j,
 * the FAISS indexes or the text models (issue 49: it used to pay the whole start-up first).
 */
import type { BuildManifest } from '../domain/artifacts.js';
import { InputError } from '../errors.js';
import { readManifest } from '../query/load-snapshot.js';
import type { SourceSpec } from '../sources/types.js';
import { readIndexedRecords } from './indexed-records-file.js';
import { assertNoLeakage, findLeakage, type LeakageReport } from './leakage.js';
import { readTestRecords, type TestRecords, type TestRecordsOptions } from './test-records.js';

export interface EvalInput {
  manifest: BuildManifest;
  test: TestRecords;
  leakage: LeakageReport;
}

export async function readEvalInput(spec: SourceSpec, opts: Omit<TestRecordsOptions, 'manifest'> & { allowContentDuplicates: boolean; description: string }): Promise<EvalInput> {
  const manifest = await readManifest(opts.dataDir);
  const test = await readTestRecords(spec, { ...opts, manifest });
  if (test.records.length === 0) {
    const part = test.heldOut ? ` (its held-out part: ${test.heldOut.seen.test.records} of ${test.heldOut.seen.train.records + test.heldOut.seen.test.records} records)` : '';
    throw new InputError(`the test source ${opts.description} yielded no records${part}`, { field: 'test' });
  }
  const leakage = findLeakage(test.records, await readIndexedRecords(opts.dataDir, manifest), test.heldOut?.train ?? null);
  assertNoLeakage(leakage, { allowContentDuplicates: opts.allowContentDuplicates, heldOut: test.heldOut !== null });
  return { manifest, test, leakage };
}

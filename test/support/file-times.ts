import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * In a parallel worker, the time of each test file, from its first root hook to its last,
 * appended to the file the reporter (file-times-reporter.cts) named in DXGRAPH_TEST_FILE_TIMES:
 * the main process only sees a worker's events once its file is done.
 */
let started = 0;

export function fileStarted(): void {
  started = Date.now();
}

export function fileDone(root: Mocha.Suite): void {
  const out = process.env.DXGRAPH_TEST_FILE_TIMES;
  const file = root.suites.find((s) => s.file)?.file;
  if (!out || process.env.MOCHA_WORKER_ID === undefined || !file) return;
  const row = { file: relative(process.cwd(), file), ms: Date.now() - started, tests: root.total() };
  appendFileSync(out, JSON.stringify(row) + '\n');
}

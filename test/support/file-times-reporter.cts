// Mocha reporter: the spec reporter's output, then the wall-clock time per test file, slowest
// first, so a slow story is seen the day it lands (issue 49). CommonJS (.cts) because mocha
// loads reporters with require().
import Mocha = require('mocha');
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import table = require('./file-times-table.cjs');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_RUN_END } = Mocha.Runner.constants;

type FileTime = table.FileTime;

/** Time spent per file: from the first suite of the file starting to its last suite ending. */
class FileTimesReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    // Parallel mode replays a worker's events when its file is done, so wall-clock here means
    // nothing: workers time their own files (test/support/file-times.ts) into this file.
    const workerTimes = path.join(os.tmpdir(), `dxgraph-test-times-${process.pid}.jsonl`);
    process.env.DXGRAPH_TEST_FILE_TIMES = workerTimes;
    const opened = new Map<string, number>();
    const times = new Map<string, FileTime>();
    let rootHookStart = 0;
    let rootHookMs = 0;
    const add = (file: string, ms: number, tests: number) => {
      const t = times.get(file) ?? { file, ms: 0, tests: 0 };
      t.ms += ms;
      t.tests += tests;
      times.set(file, t);
    };
    // Only a file's top-level suites (depth 2, under the root): nested ones are inside their span.
    let depth = 0;
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (++depth === 2 && suite.file) opened.set(suite.fullTitle() + suite.file, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      if (depth-- !== 2 || !suite.file) return;
      const start = opened.get(suite.fullTitle() + suite.file);
      add(path.relative(process.cwd(), suite.file!), Date.now() - start!, suite.total());
    });
    // Root hooks (the shared Neo4j's start and stop) belong to no file.
    runner.on(EVENT_HOOK_BEGIN, (hook: Mocha.Hook) => {
      if (hook.parent?.root) rootHookStart = Date.now();
    });
    runner.on(EVENT_HOOK_END, (hook: Mocha.Hook) => {
      if (hook.parent?.root) rootHookMs += Date.now() - rootHookStart;
    });
    runner.once(EVENT_RUN_END, () => {
      if (fs.existsSync(workerTimes)) {
        for (const t of fs.readFileSync(workerTimes, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as FileTime)) {
          const known = times.get(t.file);
          times.set(t.file, { ...t, tests: known?.tests ?? t.tests });
        }
        fs.rmSync(workerTimes);
      }
      const rows = [...times.values()].sort((a, b) => b.ms - a.ms);
      report(rows, rootHookMs, options.reporterOptions ?? {});
    });
  }
}

function report(rows: FileTime[], rootHookMs: number, opts: Record<string, unknown>): void {
  const out = typeof opts.output === 'string' ? opts.output : process.env.DXGRAPH_TEST_TIMES_OUT;
  if (out) fs.writeFileSync(out, JSON.stringify(rows, null, 2) + '\n');
  const top = Number(opts.top ?? process.env.DXGRAPH_TEST_TIMES_TOP ?? 10);
  if (!(top > 0)) return;
  // The totals in the title are of every file, the lines only of the `top` slowest.
  const t = table.fileTimesTable(rows, 'Time per file, slowest first');
  for (const l of [t.title, ...(t.header ? [t.header] : []), ...t.lines.slice(0, top)]) Mocha.reporters.Base.consoleLog(`  ${l}`);
  if (rootHookMs > 0) Mocha.reporters.Base.consoleLog(`  and ${(rootHookMs / 1000).toFixed(1)} s in root hooks (the test Neo4j's start)`);
  Mocha.reporters.Base.consoleLog('');
}

export = FileTimesReporter;

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTempDir } from '../../scripts/lib/run-temp-dir.js';

describe('a test run\'s temporary directory (scripts/lib/run-temp-dir.ts)', () => {
  let base: string;
  let saved: string | undefined;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'dx-run-tmp-'));
    saved = process.env.TMPDIR;
    process.env.TMPDIR = base;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(base, { recursive: true, force: true });
  });

  it('is made under the temporary directory, named by the run, and removed with all it holds', () => {
    const tmp = runTempDir('int');
    assert.ok(tmp.path.startsWith(join(base, `dxgraph-run-tmp-${process.pid}-int-`)), tmp.path);
    // Other users (a test's PostgreSQL runs as postgres) may pass through it, not list it.
    assert.equal(statSync(tmp.path).mode & 0o777, 0o711);
    mkdirSync(join(tmp.path, 'a build', 'faiss'), { recursive: true });
    tmp.remove();
    assert.equal(existsSync(tmp.path), false);
  });

  it('removes the directories of runs whose process is gone, keeps a live run\'s and anything else', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    const deadPid = gone.pid!;
    await new Promise((r) => gone.once('exit', r));
    mkdirSync(join(base, `dxgraph-run-tmp-${deadPid}-unit-abc123`, 'left'), { recursive: true });
    mkdirSync(join(base, `dxgraph-run-tmp-${process.pid}-unit-def456`));
    mkdirSync(join(base, 'dxgraph-test-times-xyz'));
    const tmp = runTempDir('int');
    const names = readdirSync(base).sort();
    assert.deepEqual(names, [`dxgraph-run-tmp-${process.pid}-unit-def456`, tmp.path.slice(base.length + 1), 'dxgraph-test-times-xyz'].sort());
    tmp.remove();
  });
});

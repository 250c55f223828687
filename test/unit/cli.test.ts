import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; stdout and stderr as text. Never rejects: a spawn error is in stderr. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, timeout: 240_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.once('error', (e) => resolve({ status: null, stdout, stderr: stderr + String(e) }));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The real CLI as a user runs it (bin/dxgraph.js through tsx); no server is started. */
function dxgraph(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return run(process.execPath, [join(PROJECT_ROOT, 'bin', 'dxgraph.js'), ...args], { ...process.env, ...env });
}

// Each run loads the whole CLI through tsx (seconds of CPU), so the runs of a suite start
// together in its before hook and each story checks its own (issue 49): the stories' waits
// overlap instead of adding up.

describe('dxgraph neo4j (CLI)', function () {
  // A safety net for a hung CLI, not a speed target: four runs share the machine.
  this.timeout(300_000);
  const homes: string[] = [];
  // An empty home of its own per run: runs at the same time never see each other's files.
  const emptyHome = () => {
    homes.push(mkdtempSync(join(tmpdir(), 'dxgraph-cli-')));
    return homes[homes.length - 1]!;
  };
  let ran: Record<'status' | 'start' | 'stop' | 'badPort', Promise<Ran>>;
  before(() => {
    ran = {
      status: dxgraph(['neo4j', 'status'], { NEO4J_HOME: emptyHome(), NEO4J_BOLT_PORT: '17699', NEO4J_HTTP_PORT: '17498' }),
      start: dxgraph(['neo4j', 'start'], { NEO4J_HOME: emptyHome() }),
      stop: dxgraph(['neo4j', 'stop'], { NEO4J_HOME: emptyHome() }),
      badPort: dxgraph(['neo4j', 'status'], { NEO4J_HOME: emptyHome(), NEO4J_BOLT_PORT: 'seven' }),
    };
  });
  after(async () => {
    await Promise.all(Object.values(ran ?? {}));
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('status runs and reports an empty home as not assembled and not running, with the addresses', async () => {
    const r = await ran.status;
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /not assembled/);
    assert.match(r.stdout, /Neo4j: not running/);
    assert.match(r.stdout, /bolt:\/\/127\.0\.0\.1:17699/);
    assert.match(r.stdout, /http:\/\/127\.0\.0\.1:17498\/browser\//);
  });

  it('start in an empty home fails in one line telling how to install', async () => {
    const r = await ran.start;
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^dxgraph: Neo4j is not assembled in .*dxgraph neo4j install/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  it('stop when nothing runs is a no-op', async () => {
    const r = await ran.stop;
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /was not running/);
  });

  it('a bad port variable is a config error naming it (exit 2)', async () => {
    const r = await ran.badPort;
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^dxgraph: NEO4J_BOLT_PORT: /);
  });
});

describe('dxgraph output to a reader that closes early (CLI)', function () {
  this.timeout(90_000);
  it('`dxgraph … | head -1` ends quietly with status 0, no EPIPE stack', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dxgraph-cli-'));
    try {
      const bin = join(PROJECT_ROOT, 'bin', 'dxgraph.js');
      const r = await run('bash', ['-o', 'pipefail', '-c', `NEO4J_HOME='${home}' '${process.execPath}' '${bin}' neo4j status | head -c 1 > /dev/null`], process.env);
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /EPIPE|Unhandled/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

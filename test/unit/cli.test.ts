import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';

/** The real CLI as a user runs it (bin/dxgraph.js through tsx); no server is started. */
function dxgraph(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'dxgraph.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('dxgraph neo4j (CLI)', function () {
  this.timeout(90_000);
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'dxgraph-cli-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('status runs and reports an empty home as not assembled and not running, with the addresses', () => {
    const r = dxgraph(['neo4j', 'status'], { NEO4J_HOME: home, NEO4J_BOLT_PORT: '17699', NEO4J_HTTP_PORT: '17498' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /not assembled/);
    assert.match(r.stdout, /Neo4j: not running/);
    assert.match(r.stdout, /bolt:\/\/127\.0\.0\.1:17699/);
    assert.match(r.stdout, /http:\/\/127\.0\.0\.1:17498\/browser\//);
  });

  it('start in an empty home fails in one line telling how to install', () => {
    const r = dxgraph(['neo4j', 'start'], { NEO4J_HOME: home });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^dxgraph: Neo4j is not assembled in .*dxgraph neo4j install/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  it('stop when nothing runs is a no-op', () => {
    const r = dxgraph(['neo4j', 'stop'], { NEO4J_HOME: home });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /was not running/);
  });

  it('a bad port variable is a config error naming it (exit 2)', () => {
    const r = dxgraph(['neo4j', 'status'], { NEO4J_HOME: home, NEO4J_BOLT_PORT: 'seven' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^dxgraph: NEO4J_BOLT_PORT: /);
  });
});

describe('dxgraph output to a reader that closes early (CLI)', function () {
  this.timeout(90_000);
  it('`dxgraph … | head -1` ends quietly with status 0, no EPIPE stack', () => {
    const home = mkdtempSync(join(tmpdir(), 'dxgraph-cli-'));
    try {
      const bin = join(PROJECT_ROOT, 'bin', 'dxgraph.js');
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', `NEO4J_HOME='${home}' '${process.execPath}' '${bin}' neo4j status | head -c 1 > /dev/null`], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /EPIPE|Unhandled/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

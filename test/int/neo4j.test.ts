import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { ArtifactError, ServiceUnavailableError } from '../../src/errors.js';
import { classArchivePath } from '../../src/neo4j-launcher/class-archive.js';
import { defaultHome, freePort, makeLayout } from '../../src/neo4j-launcher/index.js';
import { findJava } from '../../src/neo4j-launcher/java.js';
import { clearDatabase, neo4jHttpUrl, testGraphStore, testRunId } from '../support/neo4j.js';

describe('Neo4j over Bolt (real server)', () => {
  let store: GraphStore;

  before(async () => {
    store = await testGraphStore();
    await clearDatabase({ store });
  });

  after(async () => {
    await clearDatabase({ store, schema: true });
  });

  it('writes nodes with a named query and reads them back', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, name: `probe ${i}`, weight: i / 4 }));
    const written = await store.write('test/write-probes', { rows });
    assert.equal(written[0]?.written, 25);
    const back = await store.read('test/read-probes');
    assert.deepEqual(back, rows);
  });

  it('MERGE on the id makes a rerun idempotent', async () => {
    const rows = [{ id: 'p00', name: 'renamed', weight: 9.5 }];
    await store.write('test/write-probes', { rows });
    const back = await store.read('test/read-probes');
    assert.equal(back.length, 25);
    assert.deepEqual(back[0], { id: 'p00', name: 'renamed', weight: 9.5 });
  });

  it('runs every statement of a multi-statement schema file', async () => {
    await store.writeAll('test/probe-schema');
    const names = (await store.runText('SHOW CONSTRAINTS YIELD name RETURN name', {}, 'READ')).map((r) => r.name);
    assert.ok(names.includes('dx_test_probe_id'), `constraints: ${names.join(', ')}`);
    const idx = (await store.runText('SHOW INDEXES YIELD name RETURN name', {}, 'READ')).map((r) => r.name);
    assert.ok(idx.includes('dx_test_probe_name'), `indexes: ${idx.join(', ')}`);
    // The constraint is live: a second node with an existing id is refused.
    await assert.rejects(() => store.runText('CREATE (:DxTestProbe {id: $id})', { id: 'p01' }, 'WRITE'), /already exists/);
  });

  it('names a missing named query in its error', async () => {
    await assert.rejects(() => store.read('test/no-such-query'), (e: unknown) => e instanceof ArtifactError && /test\/no-such-query/.test(e.message));
  });

  it('clearDatabase empties the graph', async () => {
    await clearDatabase({ store });
    assert.deepEqual(await store.read('test/read-probes'), []);
  });
});

describe('Neo4j class archive (issue 49)', () => {
  it('setup made the class archive for this Java, and the test server maps it', () => {
    const layout = makeLayout({ home: defaultHome(), instanceDir: join(defaultHome(), 'test-instances', `${testRunId()}-${process.pid}`) });
    const archive = classArchivePath(layout, findJava());
    assert.ok(existsSync(archive), `no class archive at ${archive}: \`npm run setup\` makes it (src/neo4j-launcher/train-class-archive.ts)`);
    const pid = Number(readFileSync(layout.pidFile, 'utf8').trim());
    // Mapped into the JVM's memory: the JVM accepted it (an archive it rejects is not mapped).
    // /proc names the file by its real path (the home may be reached through a symlink).
    const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    assert.ok(maps.includes(realpathSync(archive)), `pid ${pid} does not map ${archive}`);
  });
});

describe('Neo4j HTTP connector', () => {
  it('serves Neo4j Browser at /browser/', async () => {
    const res = await fetch(`${neo4jHttpUrl()}/browser/`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Neo4j Browser<\/title>/);
  });

  it('reports the server version at the discovery endpoint', async () => {
    const res = await fetch(`${neo4jHttpUrl()}/`);
    const body = (await res.json()) as { neo4j_version?: string; bolt_direct?: string };
    assert.match(body.neo4j_version ?? '', /^5\./);
  });
});

describe('GraphStore with a wrong NEO4J_URI', () => {
  it('fails with one line naming NEO4J_URI and the address tried', async () => {
    const port = await freePort(); // nothing listens there
    const uri = `bolt://127.0.0.1:${port}`;
    const bad = new GraphStore({ uri, user: 'neo4j', password: '', database: 'neo4j' });
    try {
      await assert.rejects(
        () => bad.connect({ timeoutMs: 3000 }),
        (e: unknown) => {
          assert.ok(e instanceof ServiceUnavailableError, `got ${String(e)}`);
          assert.match(e.message, /NEO4J_URI/);
          assert.ok(e.message.includes(uri), e.message);
          assert.ok(!e.message.includes('\n'), 'one line');
          return true;
        },
      );
    } finally {
      await bad.close();
    }
  });
});

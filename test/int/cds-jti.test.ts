import assert from 'node:assert/strict';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { neo4jJtiClaims } from '../../src/cds-hooks/jti-claims.js';
import { testGraphStore } from '../support/neo4j.js';

/**
 * The CDS replay guard shared by replicas (issue 30): two stores on one real Neo4j, as two
 * `dxgraph serve` processes with DXGRAPH_SESSIONS=neo4j hold them.
 */
describe('CDS Hooks: a client JWT id claimed once across replicas (real Neo4j)', () => {
  let graph: GraphStore;
  before(async () => {
    graph = await testGraphStore();
    await graph.writeAll('sessions/schema');
  });
  after(async () => {
    await graph.runText('MATCH (j:CdsJti) DELETE j', {}, 'WRITE');
    await graph.close();
  });

  it('one replica accepts a jti, the other then refuses it; racing for it, exactly one wins; after its exp it is free again', async () => {
    const a = neo4jJtiClaims(graph);
    const b = neo4jJtiClaims(graph);
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await a.claim('https://ehr.example', 'jti-1', now + 300, now), true);
    assert.equal(await b.claim('https://ehr.example', 'jti-1', now + 300, now + 1), false, 'replayed to the other replica');
    assert.equal(await a.claim('https://other.example', 'jti-1', now + 300, now + 1), true, 'another issuer, another key');
    const race = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claim('https://ehr.example', 'jti-race', now + 300, now)));
    assert.equal(race.filter(Boolean).length, 1, `claims won: ${race.join(',')}`);
    // Stored as digests: neither the issuer nor the jti is readable in Browser.
    const keys = (await graph.runText('MATCH (j:CdsJti) RETURN j.key AS key', {}, 'READ')).map((r) => String(r.key));
    assert.ok(keys.length === 3 && keys.every((k) => /^[0-9a-f]{64}$/.test(k)), keys.join(','));
    assert.equal(await b.claim('https://ehr.example', 'jti-1', now + 700, now + 400), true, 'expired claims are taken over');
  });

  it('expired claims are purged by the next claim after a minute', async () => {
    const c = neo4jJtiClaims(graph);
    const now = Math.floor(Date.now() / 1000);
    await c.claim('https://ehr.example', 'old', now - 10, now - 20);
    await c.claim('https://ehr.example', 'later', now + 3600, now + 120);
    const left = await graph.runText("MATCH (j:CdsJti) WHERE j.exp < $now RETURN count(j) AS n", { now: now + 120 }, 'READ');
    assert.equal(Number(left[0]!.n), 0);
  });
});

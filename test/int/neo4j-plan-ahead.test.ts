import assert from 'node:assert/strict';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../../src/config.js';
import { LOAD_QUERIES } from '../../kg-build/load-neo4j.js';

/**
 * A build plans its load queries ahead (EXPLAIN, kg-build/load-neo4j.ts prepareLoad) while it
 * scans its records. An EXPLAIN costs the server CPU even when the plan is cached, so a process
 * plans a query once per server run: a second build's store (another GraphStore, as every build
 * opens its own) sends none.
 */
describe('Neo4j: a process plans the load queries once per server run', function () {
  this.timeout(120_000);
  const stores: GraphStore[] = [];
  const explained = (store: GraphStore) => {
    const sent: string[] = [];
    const runText = store.runText.bind(store);
    store.runText = async (text, params, mode) => {
      if (text.startsWith('EXPLAIN ')) sent.push(text);
      return runText(text, params, mode);
    };
    return sent;
  };
  const open = async () => {
    const store = new GraphStore(loadConfig().neo4j);
    await store.connect();
    stores.push(store);
    return store;
  };
  after(async () => {
    for (const s of stores) await s.close();
  });

  // Two small load queries: planning all 15 on a cold server costs ~13 s of its CPU for nothing more.
  const some = LOAD_QUERIES.filter((q) => q === 'build/start-build' || q === 'build/complete-build');

  it('the first store plans the load queries it is asked to, a later store on the same server none', async () => {
    assert.equal(some.length, 2);
    const first = await open();
    const firstSent = explained(first);
    for (const q of some) await first.explain(q);
    // A worker's earlier file may have planned them already (a build), so not asserted here.
    assert.ok(firstSent.every((t) => t.startsWith('EXPLAIN ')));
    const second = await open();
    const secondSent = explained(second);
    for (const q of some) await second.explain(q);
    assert.deepEqual(secondSent, [], 'nothing planned again on the same server run');
  });

  it('a query not planned yet is planned once (the memo is per query)', async () => {
    // Nothing else explains this one (the server reads it; only prepareLoad explains, the load queries).
    const store = await open();
    const sent = explained(store);
    await store.explain('query/kg-diseases');
    await store.explain('query/kg-diseases');
    assert.equal(sent.length, 1);
    const again = await open();
    const sentAgain = explained(again);
    await again.explain('query/kg-diseases');
    assert.equal(sentAgain.length, 0);
  });

  it('a plan asked for while the same one is in flight waits for it: one EXPLAIN (a calibrated build plans its load early)', async () => {
    // Another query nothing else explains; two stores of this process ask for it at once.
    const early = await open();
    const late = await open();
    const sentEarly = explained(early);
    const sentLate = explained(late);
    await Promise.all([early.explain('query/kg-build-info'), late.explain('query/kg-build-info')]);
    assert.equal(sentEarly.length + sentLate.length, 1);
  });
});

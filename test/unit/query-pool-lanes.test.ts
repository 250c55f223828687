import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../src/config.js';
import { HeavyClients, pickSlot, type LaneSlot } from '../../src/query/pool-lanes.js';
import { requestClient } from '../../src/query/request-client.js';
import { assertConfigRejects } from '../support/config-assert.js';
import { fakeResult, postJson, startFakeApp } from './http-fakes.js';

const slots = (spec: string): LaneSlot[] => [...spec].map((c) => ({ lane: c.toLowerCase() === 'f' ? 'foreground' : 'background', busy: c === c.toUpperCase() }));

describe('diagnose pool lanes (issue 28 fairness)', () => {
  it('a client with nothing running gets a foreground worker, else a background one rather than waiting', () => {
    assert.equal(pickSlot(slots('Ffbb'), 0), 1);
    assert.equal(pickSlot(slots('FFbb'), 0), 2);
    assert.equal(pickSlot(slots('FFBB'), 0), -1);
  });
  it("a client's concurrent jobs go to background workers, and wait rather than take a foreground one", () => {
    assert.equal(pickSlot(slots('ffBb'), 1), 3);
    assert.equal(pickSlot(slots('ffBB'), 2), -1);
  });
  it('a client that had two jobs in the pool within the window is heavy (all its jobs background); one at a time never is', () => {
    const h = new HeavyClients(1000);
    h.note('busy', 2, 0);
    h.note('light', 1, 0);
    assert.equal(h.isHeavy('busy', 500), true);
    assert.equal(h.isHeavy('light', 500), false);
    assert.equal(h.isHeavy('busy', 1001), false, 'forgiven after the window');
    assert.equal(h.isHeavy('busy', 500), false, 'and forgotten');
    // Many clients (addresses): the stale ones are dropped once there are over 1,024.
    const many = new HeavyClients(1000);
    for (let i = 0; i < 1100; i++) many.note(`ip${i}`, 2, i < 1000 ? 0 : 5000);
    assert.equal(many.isHeavy('ip0', 0), false, 'a stale client was forgotten');
    assert.equal(many.isHeavy('ip1099', 5000), true);
  });
  it('without background workers (one lane) any free worker runs any job', () => {
    assert.equal(pickSlot(slots('Ff'), 3), 1);
    assert.equal(pickSlot(slots('FF'), 0), -1);
  });
  it('admission runs the request in its client context; outside it there is none (foreground)', () => {
    assert.equal(requestClient.getStore(), undefined);
    assert.equal(requestClient.run('key:abc', () => requestClient.getStore()), 'key:abc');
  });
  it('an admitted diagnose runs in its client context: one per API key', async () => {
    const seen: (string | undefined)[] = [];
    const h = await startFakeApp({
      apiKeys: ['first-key-0123456789abcdef', 'second-key-0123456789abcde'],
      query: { diagnose: async (input) => (seen.push(requestClient.getStore()), fakeResult(input)) },
    });
    try {
      for (const key of ['first-key-0123456789abcdef', 'second-key-0123456789abcde', 'first-key-0123456789abcdef']) {
        assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' }, { 'x-api-key': key })).status, 200);
      }
    } finally {
      await h.close();
    }
    assert.ok(seen.every((c) => typeof c === 'string' && c.length > 0), String(seen));
    assert.equal(seen[0], seen[2]);
    assert.notEqual(seen[0], seen[1]);
  });
  it('DXGRAPH_QUERY_WORKERS_BACKGROUND: 0 by default, auto = one per core, a count; anything else refused', () => {
    assert.equal(loadConfig({}).queryBackgroundWorkers, 0);
    assert.equal(loadConfig({ DXGRAPH_QUERY_WORKERS_BACKGROUND: 'auto' }).queryBackgroundWorkers, availableParallelism());
    assert.equal(loadConfig({ DXGRAPH_QUERY_WORKERS_BACKGROUND: '2' }).queryBackgroundWorkers, 2);
    for (const bad of ['some', '-1', '65']) assertConfigRejects({ DXGRAPH_QUERY_WORKERS_BACKGROUND: bad }, 'DXGRAPH_QUERY_WORKERS_BACKGROUND');
  });
});

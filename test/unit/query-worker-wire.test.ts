import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../src/config.js';
import { ArtifactError, DxError, InputError, LlmOutputError, NotFoundError, ServiceUnavailableError } from '../../src/errors.js';
import { fromWire, toWire } from '../../src/query/worker-wire.js';
import { assertConfigRejects } from '../support/config-assert.js';

/** Errors cross the worker boundary as data; the HTTP layer must still see the typed error (400, 503, ...). */
const roundTrip = (e: unknown) => fromWire(structuredClone(toWire(e)));

describe('diagnose workers: errors across the thread boundary, DXGRAPH_QUERY_WORKERS', () => {
  it('rebuilds each typed error with its field, service or path', () => {
    const input = roundTrip(new InputError('options.reasoner: no llm', { field: 'options.reasoner' }));
    assert.ok(input instanceof InputError && input.field === 'options.reasoner' && input.message === 'options.reasoner: no llm');
    const down = roundTrip(new ServiceUnavailableError('neo4j', 'Neo4j is not reachable'));
    assert.ok(down instanceof ServiceUnavailableError && down.service === 'neo4j');
    const art = roundTrip(new ArtifactError('/d/x.faiss', 'missing'));
    assert.ok(art instanceof ArtifactError && art.path === '/d/x.faiss');
    assert.ok(roundTrip(new NotFoundError('gone')) instanceof NotFoundError);
    assert.ok(roundTrip(new LlmOutputError('bad json')) instanceof LlmOutputError);
    const dx = roundTrip(new DxError('SESSION_SEAL', 'x'));
    assert.ok(dx instanceof DxError && dx.code === 'SESSION_SEAL');
  });
  it('a bug stays a plain Error (a 500), not a typed one', () => {
    const bug = roundTrip(new TypeError('x is undefined'));
    assert.ok(!(bug instanceof DxError));
    assert.match(bug.message, /x is undefined/);
  });
  it('DXGRAPH_QUERY_WORKERS: off by default, auto = one per core, a count, 0 = off; anything else refused', () => {
    assert.equal(loadConfig({}).queryWorkers, 0);
    assert.equal(loadConfig({ DXGRAPH_QUERY_WORKERS: 'auto' }).queryWorkers, availableParallelism());
    assert.equal(loadConfig({ DXGRAPH_QUERY_WORKERS: '3' }).queryWorkers, 3);
    assert.equal(loadConfig({ DXGRAPH_QUERY_WORKERS: '0' }).queryWorkers, 0);
    for (const bad of ['many', '-1', '1.5', '65']) assertConfigRejects({ DXGRAPH_QUERY_WORKERS: bad }, 'DXGRAPH_QUERY_WORKERS');
  });
});

import assert from 'node:assert/strict';
import { DEFAULT_SESSIONS, loadConfig } from '../../src/config.js';
import { assertConfigRejects } from '../support/config-assert.js';

const rejects = assertConfigRejects;

describe('config: consultation sessions and follow-ups', () => {
  it('defaults: 30 min TTL, 1000 sessions, stop at 0.9, information gain, 100 per key, 200 turns, 4 h lifetime', () => {
    const c = loadConfig({});
    assert.deepEqual(c.sessions, { ttlMs: 1_800_000, maxSessions: 1000, stopConfidence: 0.9, ranker: 'information-gain', maxPerKey: 100, maxTurns: 200, lifetimeMs: 14_400_000 });
    assert.deepEqual(c.sessions, DEFAULT_SESSIONS);
  });

  it('reads the variables it is given', () => {
    const c = loadConfig({
      DXGRAPH_SESSION_TTL_MS: '5000', DXGRAPH_SESSION_MAX: '3', DXGRAPH_STOP_CONFIDENCE: '0.75', DXGRAPH_FOLLOWUP_RANKER: 'sigma',
      DXGRAPH_SESSION_MAX_PER_KEY: '2', DXGRAPH_SESSION_MAX_TURNS: '7', DXGRAPH_SESSION_LIFETIME_MS: '60000',
    });
    assert.deepEqual(c.sessions, { ttlMs: 5000, maxSessions: 3, stopConfidence: 0.75, ranker: 'sigma', maxPerKey: 2, maxTurns: 7, lifetimeMs: 60_000 });
  });

  it('an empty value means the default', () => {
    assert.equal(loadConfig({ DXGRAPH_FOLLOWUP_RANKER: '' }).sessions?.ranker, 'information-gain');
  });

  const bad: [string, string[]][] = [
    ['DXGRAPH_SESSION_TTL_MS', ['soon', '-1', '0', '999', '1500.5', String(8 * 86_400_000)]],
    ['DXGRAPH_SESSION_MAX', ['many', '0', '-5', '2.5', '1000001']],
    ['DXGRAPH_STOP_CONFIDENCE', ['high', '0', '-0.1', '1.01', '90']],
    ['DXGRAPH_FOLLOWUP_RANKER', ['random', 'Sigma', 'ig', 'information_gain']],
    ['DXGRAPH_SESSION_MAX_PER_KEY', ['lots', '0', '-1', '1.5', '1000001']],
    ['DXGRAPH_SESSION_MAX_TURNS', ['x', '0', '-3', '2.5', '10001']],
    ['DXGRAPH_SESSION_LIFETIME_MS', ['forever', '0', '999', '1.5', String(8 * 86_400_000)]],
  ];
  for (const [variable, values] of bad) {
    for (const v of values) it(`rejects ${variable}=${v} naming ${variable}`, () => rejects({ [variable]: v }, variable));
  }
});

describe('config: where sessions live (DXGRAPH_SESSIONS, DXGRAPH_SESSION_KEY)', () => {
  const KEY = '0123456789abcdef'.repeat(4);
  it('memory by default, no key needed', () => {
    assert.deepEqual(loadConfig({}).sessionStore, { kind: 'memory' });
  });
  it('neo4j needs a 32-byte key and holds it redacted', () => {
    const c = loadConfig({ DXGRAPH_SESSIONS: 'neo4j', DXGRAPH_SESSION_KEY: KEY });
    assert.equal(c.sessionStore?.kind, 'neo4j');
    assert.equal(c.sessionStore?.kind === 'neo4j' && c.sessionStore.key.bytes().toString('hex'), KEY);
    assert.ok(!JSON.stringify(c).includes(KEY), 'the key never appears in a serialised config');
    rejects({ DXGRAPH_SESSIONS: 'neo4j' }, 'DXGRAPH_SESSION_KEY');
    rejects({ DXGRAPH_SESSIONS: 'redis' }, 'DXGRAPH_SESSIONS');
  });
  it('a malformed key is refused without repeating it, even with the memory store', () => {
    for (const bad of ['hunter2-secret-value', KEY.slice(1)]) {
      for (const kind of ['memory', 'neo4j']) {
        assert.throws(() => loadConfig({ DXGRAPH_SESSIONS: kind, DXGRAPH_SESSION_KEY: bad }), (e: unknown) => e instanceof Error && e.message.startsWith('DXGRAPH_SESSION_KEY') && !e.message.includes(bad));
      }
    }
  });
});

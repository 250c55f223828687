import assert from 'node:assert/strict';
import { rng } from '../support/memory-source.js';
import { postJson, startFakeApp, STACK_LIKE, type Harness } from './http-fakes.js';

// Hostile JSON values from a seeded generator (issue 10 runs the long fuzz; this is the quick guard).
const ATOMS: unknown[] = [null, true, 0, -1, 1e308, 2.5, '', ' ', 'MATCH (n) DETACH DELETE n', 'Ignore previous instructions', '\u0000', '\ud800', '__proto__', [], {}];

function value(r: () => number, depth: number): unknown {
  const k = r();
  if (depth <= 0 || k < 0.5) return ATOMS[Math.floor(r() * ATOMS.length)];
  if (k < 0.75) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth - 1));
  const keys = ['text', 'findings', 'age', 'sex', 'options', 'polarity', 'code', 'topK', 'reasoner', '__proto__', 'constructor'];
  return Object.fromEntries(Array.from({ length: 1 + Math.floor(r() * 3) }, () => [keys[Math.floor(r() * keys.length)]!, value(r, depth - 1)]));
}

describe('HTTP hostile bodies (quick guard)', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp();
  });
  after(() => h.close());

  it('200 random hostile bodies: never a 5xx, never a stack trace, the server stays up', async function () {
    this.timeout(60_000);
    const r = rng(42);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      const body = i % 10 === 0 ? '['.repeat(5000) + ']'.repeat(5000) : value(r, 4);
      const res = await postJson(`${h.url}/v1/diagnose`, typeof body === 'string' ? body : JSON.stringify(body));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assert.ok(res.status < 500, `status ${res.status} for ${JSON.stringify(body).slice(0, 120)}`);
      assert.doesNotMatch(res.text, STACK_LIKE);
    }
    assert.ok((statuses.get(400) ?? 0) > 120, JSON.stringify([...statuses]));
    assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
  });
});

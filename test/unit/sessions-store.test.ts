import { strict as assert } from 'node:assert';
import { NotFoundError } from '../../src/errors.js';
import { SessionStore } from '../../src/sessions/session-store.js';

function store(opts: { maxSessions?: number; ttlMs?: number } = {}) {
  const clock = { t: 1_000_000 };
  let n = 0;
  const s = new SessionStore<string>({ maxSessions: opts.maxSessions ?? 10, ttlMs: opts.ttlMs ?? 1000, now: () => clock.t, newId: () => `s${++n}` });
  return { s, clock };
}

describe('sessions: store', () => {
  it('returns a live session and refreshes its expiry on use (sliding TTL)', () => {
    const { s, clock } = store();
    const a = s.create('a');
    clock.t += 900;
    assert.equal(s.get(a.id).value, 'a');
    clock.t += 900; // 1800 after creation, 900 after last use
    assert.equal(s.get(a.id).value, 'a');
    assert.equal(s.expiresAt(s.get(a.id)), clock.t + 1000);
  });
  it('expires a session after the TTL without use: NotFoundError', () => {
    const { s, clock } = store();
    const a = s.create('a');
    clock.t += 1000;
    assert.throws(() => s.get(a.id), NotFoundError);
    assert.equal(s.size, 0);
  });
  it('gives NotFoundError for an unknown id', () => {
    assert.throws(() => store().s.get('nope'), (e: unknown) => e instanceof NotFoundError && e.code === 'NOT_FOUND');
  });
  it('is bounded: the least recently used session is evicted first', () => {
    const { s } = store({ maxSessions: 2 });
    const a = s.create('a');
    const b = s.create('b');
    s.get(a.id); // a is now more recent than b
    const c = s.create('c');
    assert.equal(s.size, 2);
    assert.throws(() => s.get(b.id), NotFoundError);
    assert.equal(s.get(a.id).value, 'a');
    assert.equal(s.get(c.id).value, 'c');
  });
  it('updates in place and rejects bad bounds', () => {
    const { s } = store();
    const a = s.create('a');
    s.update(a.id, 'a2');
    assert.equal(s.get(a.id).value, 'a2');
    assert.throws(() => new SessionStore({ maxSessions: 0, ttlMs: 1 }));
    assert.throws(() => new SessionStore({ maxSessions: 1, ttlMs: 0 }));
  });
});

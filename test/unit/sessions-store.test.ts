import { strict as assert } from 'node:assert';
import { NotFoundError } from '../../src/errors.js';
import { SessionLimitError } from '../../src/sessions/errors.js';
import { SessionStore } from '../../src/sessions/session-store.js';

function store(opts: { maxSessions?: number; maxPerOwner?: number; ttlMs?: number; lifetimeMs?: number } = {}) {
  const clock = { t: 1_000_000 };
  let n = 0;
  const s = new SessionStore<string>({
    maxSessions: opts.maxSessions ?? 10, maxPerOwner: opts.maxPerOwner ?? 10, ttlMs: opts.ttlMs ?? 1000, lifetimeMs: opts.lifetimeMs ?? 60_000,
    now: () => clock.t, newId: () => `s${++n}`,
  });
  return { s, clock };
}
const limit = (kind: string) => (e: unknown) => e instanceof SessionLimitError && e.limit === kind;

describe('sessions: store', () => {
  it('returns a live session to its owner and refreshes its expiry on use (sliding TTL)', () => {
    const { s, clock } = store();
    const a = s.create('k1', 'a');
    clock.t += 900;
    assert.equal(s.get(a.id, 'k1').value, 'a');
    clock.t += 900; // 1800 after creation, 900 after last use
    assert.equal(s.get(a.id, 'k1').value, 'a');
    assert.equal(s.expiresAt(s.get(a.id, 'k1')), clock.t + 1000);
  });
  it('another owner gets NotFoundError, the same as for an unknown id, and does not refresh it', () => {
    const { s, clock } = store();
    const a = s.create('k1', 'a');
    clock.t += 600;
    assert.throws(() => s.get(a.id, 'k2'), (e: unknown) => e instanceof NotFoundError && e.message === 'session not found or expired');
    assert.throws(() => s.get('nope', 'k1'), (e: unknown) => e instanceof NotFoundError && e.message === 'session not found or expired');
    assert.equal(s.delete(a.id, 'k2'), false);
    clock.t += 400; // 1000 after the owner's last use: the foreign read did not extend it
    assert.throws(() => s.get(a.id, 'k1'), NotFoundError);
  });
  it('expires a session after the TTL without use', () => {
    const { s, clock } = store();
    const a = s.create('k1', 'a');
    clock.t += 1000;
    assert.throws(() => s.get(a.id, 'k1'), NotFoundError);
    assert.equal(s.size, 0);
  });
  it('ends a session polled all along at its absolute lifetime', () => {
    const { s, clock } = store({ ttlMs: 1000, lifetimeMs: 5000 });
    const a = s.create('k1', 'a');
    for (let i = 0; i < 9; i++) {
      clock.t += 500;
      s.get(a.id, 'k1');
    }
    assert.equal(s.expiresAt(s.get(a.id, 'k1')), a.createdAt + 5000, 'the lifetime caps the sliding expiry');
    clock.t += 500; // 5000 after creation
    assert.throws(() => s.get(a.id, 'k1'), NotFoundError);
    assert.equal(s.countOf('k1'), 0);
  });
  it('per-owner quota: refuses the owner past it, never evicts, and leaves other owners free', () => {
    const { s } = store({ maxPerOwner: 2 });
    const a = s.create('k1', 'a');
    const b = s.create('k1', 'b');
    assert.throws(() => s.create('k1', 'c'), limit('session-quota'));
    assert.throws(() => s.assertRoom('k1'), limit('session-quota'));
    assert.equal(s.get(a.id, 'k1').value, 'a');
    assert.equal(s.get(b.id, 'k1').value, 'b');
    const other = s.create('k2', 'x');
    assert.equal(s.get(other.id, 'k2').value, 'x');
    assert.equal(s.delete(a.id, 'k1'), true, 'ending one frees a place');
    assert.equal(s.create('k1', 'c').value, 'c');
  });
  it('overall capacity: a full store refuses creates instead of evicting anyone', () => {
    const { s, clock } = store({ maxSessions: 2, maxPerOwner: 2 });
    const a = s.create('k1', 'a');
    const b = s.create('k2', 'b');
    assert.throws(() => s.create('k3', 'c'), limit('session-capacity'));
    assert.equal(s.get(a.id, 'k1').value, 'a');
    assert.equal(s.get(b.id, 'k2').value, 'b');
    clock.t += 1000; // both idle-expired: room again
    assert.equal(s.create('k3', 'c').value, 'c');
    assert.equal(s.size, 1);
  });
  it('rejects bad bounds', () => {
    const ok = { maxSessions: 1, maxPerOwner: 1, ttlMs: 1, lifetimeMs: 1 };
    assert.throws(() => new SessionStore({ ...ok, maxSessions: 0 }));
    assert.throws(() => new SessionStore({ ...ok, maxPerOwner: 1.5 }));
    assert.throws(() => new SessionStore({ ...ok, ttlMs: 0 }));
    assert.throws(() => new SessionStore({ ...ok, lifetimeMs: -1 }));
  });
});

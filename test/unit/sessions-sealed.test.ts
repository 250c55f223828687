import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { openContent, sealContent, SessionKey } from '../../src/sessions/sealed-content.js';

const HEX = 'a'.repeat(64);

describe('sessions: sealed content (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const text = 'a 40-year-old with a dry cough and chest pain';
  it('round-trips, and the stored form shows nothing of the text (fresh IV each time)', () => {
    const a = sealContent(key, text, 's1\nkey:1');
    const b = sealContent(key, text, 's1\nkey:1');
    assert.notEqual(a, b, 'a fresh IV per write');
    assert.match(a, /^v1\.[A-Za-z0-9+/=]+$/);
    assert.ok(!a.includes('cough') && !Buffer.from(a.slice(3), 'base64').toString('latin1').includes('cough'));
    assert.deepEqual(openContent(key, a, 's1\nkey:1'), { ok: true, value: text });
  });
  it('refuses another key, altered bytes, and content moved onto another session or owner', () => {
    const sealed = sealContent(key, text, 's1\nkey:1');
    assert.equal(openContent(randomBytes(32), sealed, 's1\nkey:1').ok, false);
    assert.equal(openContent(key, sealed, 's2\nkey:1').ok, false);
    assert.equal(openContent(key, sealed, 's1\nkey:2').ok, false);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    const r = openContent(key, `v1.${raw.toString('base64')}`, 's1\nkey:1');
    assert.ok(!r.ok && !r.error.includes('cough'));
    assert.equal(openContent(key, 'plain text', 's1\nkey:1').ok, false);
  });
  it('reads a 32-byte key as hex or base64 and refuses anything else; never shows it', () => {
    assert.ok(SessionKey.parse(HEX));
    assert.ok(SessionKey.parse(randomBytes(32).toString('base64')));
    assert.ok(SessionKey.parse(randomBytes(32).toString('base64url')));
    for (const bad of ['', 'secret', 'a'.repeat(63), 'g'.repeat(64), randomBytes(16).toString('base64'), randomBytes(33).toString('base64')]) assert.equal(SessionKey.parse(bad), null, bad);
    const k = SessionKey.parse(HEX)!;
    assert.equal(k.bytes().toString('hex'), HEX);
    assert.ok(!JSON.stringify({ k }).includes('aaaa') && !inspect({ k }).includes('aaaa'));
  });
});

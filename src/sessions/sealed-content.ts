/**
 * Session content at rest: AES-256-GCM (node:crypto) under the servers' key
 * (DXGRAPH_SESSION_KEY, config.ts). Neo4j Community has no per-user access control and
 * analysts browse that database, so the patient's text and answers are stored only sealed.
 * The additional data binds a ciphertext to its session id and owner: content copied onto
 * another session node fails authentication instead of being shown to that node's owner.
 * Format: "v1." + base64(iv ‖ tag ‖ ciphertext), a fresh random 96-bit IV per write.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { err, ok, type Result } from '../result.js';

const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SESSION_KEY_BYTES = 32;

export function sealContent(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The plaintext, or why not (wrong key, altered or moved content); the reason never holds content. */
export function openContent(key: Buffer, sealed: string, aad: string): Result<string> {
  if (!sealed.startsWith(PREFIX)) return err('unknown sealed-content format');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) return err('sealed content too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return ok(Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
  } catch {
    // GCM's only failure here is authentication: the key differs or the bytes were changed.
    return err('sealed content failed authentication (another DXGRAPH_SESSION_KEY, or altered)');
  }
}

/**
 * The servers' session key. Its bytes are reachable only through `bytes()`: logging or
 * serialising the config that holds it shows "[redacted]", never the key.
 */
export class SessionKey {
  readonly #bytes: Buffer;
  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  /** DXGRAPH_SESSION_KEY: 32 bytes as 64 hex digits or base64 (url-safe too); null when it is neither. */
  static parse(text: string): SessionKey | null {
    const t = text.trim();
    if (/^[0-9a-fA-F]{64}$/.test(t)) return new SessionKey(Buffer.from(t, 'hex'));
    if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
      const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      if (b.length === SESSION_KEY_BYTES) return new SessionKey(b);
    }
    return null;
  }

  bytes(): Buffer {
    return this.#bytes;
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'SessionKey [redacted]';
  }
}

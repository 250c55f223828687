import { randomBytes } from 'node:crypto';

/**
 * A report's id is its only handle besides the API key: 144 random bits (crypto), url-safe, so
 * an id cannot be guessed or enumerated. Checked on the way in so a malformed id is a plain 404.
 */
const ID_BYTES = 18;
export const REPORT_ID = /^[A-Za-z0-9_-]{24}$/;

export const newReportId = (): string => randomBytes(ID_BYTES).toString('base64url');

/**
 * The consultation's limits as one typed error (under the project's DxError root), so the
 * session router can answer each with its own status without string matching.
 */
import { DxError } from '../errors.js';

export type SessionLimit = 'session-quota' | 'session-capacity' | 'session-turns';

/** A session limit was reached: the per-key quota, the server's capacity or a session's turn cap. */
export class SessionLimitError extends DxError {
  readonly limit: SessionLimit;
  constructor(limit: SessionLimit, message: string) {
    super('SESSION_LIMIT', message);
    this.limit = limit;
  }
}

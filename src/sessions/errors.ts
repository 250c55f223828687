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

/**
 * The session changed between this request's read and its write (another request, maybe on
 * another replica, recorded a turn first), or the client's `version` is not the current one.
 * Nothing was written; the client re-reads the session and decides again (HTTP 409).
 */
export class SessionConflictError extends DxError {
  readonly current: number | null;
  constructor(message: string, current: number | null = null) {
    super('SESSION_CONFLICT', message);
    this.current = current;
  }
}

/**
 * The session started on a KG build this server no longer serves: its question ids and
 * likelihoods belong to the old graph, so it cannot take answers (HTTP 410; its history
 * stays readable until it expires). The message names both builds, never patient content.
 */
export class SessionBuildError extends DxError {
  /**
   * `pending`: the session's build is the KG's newest and this server still serves an older
   * one (a rolling restart in progress): the session is fine, another replica (or this one
   * after its restart) continues it (HTTP 503 + Retry-After instead of 410).
   */
  constructor(readonly sessionBuild: string | null, readonly servedBuild: string | null, readonly pending = false) {
    super(
      pending ? 'SESSION_BUILD_PENDING' : 'SESSION_BUILD_RETIRED',
      pending
        ? `this session runs on KG build ${sessionBuild ?? '(none)'}, which this server does not serve yet (it serves ${servedBuild ?? '(none)'}): retry shortly`
        : `this session started on KG build ${sessionBuild ?? '(none)'}; the server now serves build ${servedBuild ?? '(none)'}: start a new session`,
    );
  }
}

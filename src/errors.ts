/**
 * One error root for everything dxgraph raises on purpose. Subclasses carry a stable
 * `code` so the CLI and HTTP layer can map them to exit codes / status codes without
 * string matching, and a message that is safe to show a user (no patient text).
 */
export class DxError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad configuration (env variable, config file). Names the variable. */
export class ConfigError extends DxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFIG', message, options);
  }
}

/** Bad input from a user: CLI argument, HTTP body, source file row. */
export class InputError extends DxError {
  readonly field: string | null;
  constructor(message: string, opts: { field?: string; cause?: unknown } = {}) {
    super('INPUT', message, { cause: opts.cause });
    this.field = opts.field ?? null;
  }
}

/** A malformed source row: carries where it came from (file:line, table row). */
export class SourceRowError extends DxError {
  readonly location: string;
  constructor(location: string, reason: string) {
    super('SOURCE_ROW', `${location}: ${reason}`);
    this.location = location;
  }
}

/** An outside service (Neo4j, LLM endpoint, PostgreSQL) cannot be reached or failed. */
export class ServiceUnavailableError extends DxError {
  readonly service: string;
  constructor(service: string, message: string, options?: { cause?: unknown }) {
    super('UNAVAILABLE', message, options);
    this.service = service;
  }
}

/** The in-process LLM failed (runtime error, prompt longer than the context); the message names a category, never prompt or reply text. */
export class LocalModelError extends ServiceUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('llm', message, options);
  }
}

/** Something the server needs on disk (index file, build manifest) is missing or corrupt. */
export class ArtifactError extends DxError {
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super('ARTIFACT', message, options);
    this.path = path;
  }
}

/** A requested entity does not exist (session id, subcategory id). */
export class NotFoundError extends DxError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

/** LLM output that failed schema validation even after the repair attempt. */
export class LlmOutputError extends DxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LLM_OUTPUT', message, options);
  }
}

/** Setup / launcher failures (Neo4j assembly, faiss build). */
export class SetupError extends DxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SETUP', message, options);
  }
}

/** A concept lexicon file that cannot be read or does not match its schema; names the file and the field. */
export class LexiconError extends DxError {
  readonly path: string;
  /** Dotted path of the offending field ("evidences.E_91.forms.2"), null when the whole file is unreadable. */
  readonly field: string | null;
  constructor(path: string, field: string | null, message: string, options?: { cause?: unknown }) {
    super('LEXICON', message, options);
    this.path = path;
    this.field = field;
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

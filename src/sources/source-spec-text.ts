import { InputError } from '../errors.js';
import { redactUrl } from './redact-url.js';
import { parseOmopUrl } from './omop/omop-options.js';
import type { SourceSpec } from './types.js';

/**
 * The `--source` spec as text: parsed and described without loading any source's reader, so a
 * command's flags are checked at no cost (issue 49: the CLI's start-up). Opening one:
 * source-spec.ts, which re-exports these.
 */
export interface SourceSpecFlags {
  /** --mapping m.json */
  mapping?: string | null;
  /** --query-file q.sql */
  queryFile?: string | null;
}

const USAGE =
  'expected --source ddxplus:DIR | csv:PATH --mapping M.json | jsonl:PATH --mapping M.json | postgres:URL --query-file Q.sql [--mapping M.json] | omop:postgres://…[?schema=S&label=primary|earliest] | fhir:DIR';

/** Parses the CLI's `--source` value plus its companion flags into a SourceSpec. */
export function parseSourceSpec(source: string, flags: SourceSpecFlags = {}): SourceSpec {
  const mapping = flags.mapping ?? null;
  const queryFile = flags.queryFile ?? null;
  // A bare connection URL is accepted as a postgres source too.
  const bareUrl = /^postgres(ql)?:\/\//i.test(source);
  const colon = source.indexOf(':');
  if (colon <= 0 && !bareUrl) throw new InputError(`bad --source '${source}': ${USAGE}`, { field: 'source' });
  const kind = bareUrl ? 'postgres' : source.slice(0, colon).toLowerCase();
  const rest = bareUrl ? source : source.slice(colon + 1);
  if (rest.trim() === '') throw new InputError(`bad --source '${source}': nothing after '${kind}:'`, { field: 'source' });
  const noFlag = (flag: string, value: string | null): void => {
    if (value !== null) throw new InputError(`--${flag} does not apply to a ${kind} source`, { field: flag });
  };
  switch (kind) {
    case 'ddxplus':
      noFlag('mapping', mapping);
      noFlag('query-file', queryFile);
      return { kind: 'ddxplus', dir: rest };
    case 'csv':
    case 'jsonl':
      noFlag('query-file', queryFile);
      if (mapping === null) throw new InputError(`a ${kind} source needs --mapping M.json`, { field: 'mapping' });
      return { kind, path: rest, mappingPath: mapping };
    case 'postgres':
    case 'postgresql': {
      const url = /^postgres(ql)?:\/\//i.test(rest) ? rest : null;
      if (url === null) throw new InputError(`bad --source: '${kind}:' must be followed by a postgres:// or postgresql:// URL`, { field: 'source' });
      if (queryFile === null && mapping === null) throw new InputError('a postgres source needs --query-file Q.sql or --mapping M.json (with a table)', { field: 'query-file' });
      return { kind: 'postgres', url, queryFile, mappingPath: mapping };
    }
    case 'omop': {
      noFlag('mapping', mapping);
      noFlag('query-file', queryFile);
      parseOmopUrl(rest); // fail at parse time on a bad URL, schema or label rule
      return { kind: 'omop', url: rest };
    }
    case 'fhir':
      noFlag('mapping', mapping);
      noFlag('query-file', queryFile);
      return { kind: 'fhir', dir: rest };
    default:
      throw new InputError(`unknown source kind '${kind}': ${USAGE}`, { field: 'source' });
  }
}

/** A human description of a spec that never shows a password. */
export function describeSourceSpec(spec: SourceSpec): string {
  switch (spec.kind) {
    case 'ddxplus':
      return `ddxplus:${spec.dir}`;
    case 'csv':
    case 'jsonl':
      return `${spec.kind}:${spec.path} (mapping ${spec.mappingPath})`;
    case 'postgres':
      return `postgres:${redactUrl(spec.url)}${spec.queryFile ? ` (query ${spec.queryFile})` : ''}`;
    case 'omop':
      return `omop:${redactUrl(spec.url)}`;
    case 'fhir':
      return `fhir:${spec.dir}`;
  }
}

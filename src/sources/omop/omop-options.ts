import { InputError } from '../../errors.js';
import { LABEL_RULES, type LabelRule } from './label-rule.js';

export interface OmopOptions {
  /** The connection URL without dxgraph's own parameters (what pg receives). */
  url: string;
  /** Schema holding the CDM tables (and the vocabulary tables concept / concept_relationship). */
  schema: string;
  labelRule: LabelRule;
}

/** dxgraph's parameters in the omop: URL; every other parameter goes to the pg driver. */
const OWN = ['schema', 'label'];

/** `postgres://user@host/db?schema=cdm&label=earliest` -> connection URL + options. */
export function parseOmopUrl(raw: string): OmopOptions {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InputError(`bad omop: URL (expected postgres://user@host/db[?schema=cdm&label=primary|earliest])`, { field: 'source' });
  }
  if (!/^postgres(ql)?:$/i.test(u.protocol)) throw new InputError(`omop: needs a postgres:// or postgresql:// URL, got ${u.protocol}`, { field: 'source' });
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(schema)) throw new InputError(`omop: schema '${schema}' is not a plain SQL identifier`, { field: 'source' });
  const label = u.searchParams.get('label') ?? 'primary';
  if (!(LABEL_RULES as readonly string[]).includes(label)) throw new InputError(`omop: label must be one of ${LABEL_RULES.join(', ')}, got '${label}'`, { field: 'source' });
  for (const k of OWN) u.searchParams.delete(k);
  return { url: u.toString(), schema, labelRule: label as LabelRule };
}

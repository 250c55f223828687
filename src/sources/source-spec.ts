import { DdxplusSource } from './ddxplus/ddxplus-source.js';
import { openPostgresSource } from './postgres/postgres-source.js';
import { openFileSource } from './tabular/file-source.js';
import { FhirSource } from './fhir/fhir-source.js';
import { parseOmopUrl } from './omop/omop-options.js';
import { OmopSource } from './omop/omop-source.js';
import type { RecordSource, SourceOptions, SourceSpec } from './types.js';

export { describeSourceSpec, parseSourceSpec, type SourceSpecFlags } from './source-spec-text.js';

/** Opens the RecordSource a spec names. Reads nothing until records() is iterated. */
export async function openSource(spec: SourceSpec, opts: SourceOptions): Promise<RecordSource> {
  switch (spec.kind) {
    case 'ddxplus':
      return new DdxplusSource(spec.dir, opts);
    case 'csv':
    case 'jsonl':
      return openFileSource(spec, opts);
    case 'postgres':
      return openPostgresSource(spec, opts);
    case 'omop':
      return new OmopSource(parseOmopUrl(spec.url), opts);
    case 'fhir':
      return new FhirSource(spec.dir, opts);
  }
}

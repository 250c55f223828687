import { basename } from 'node:path';
import type { SourceOptions } from '../types.js';
import { csvFileRows, jsonlFileRows } from './file-rows.js';
import { loadMapping } from './mapping.js';
import { MappedSource } from './mapped-source.js';

/** A CSV or JSONL file plus a mapping file. Ids: `<kind>:<file name>:<id column or row number>`. */
export function openFileSource(spec: { kind: 'csv' | 'jsonl'; path: string; mappingPath: string }, opts: SourceOptions): MappedSource {
  const fileName = basename(spec.path);
  const rows = spec.kind === 'csv' ? csvFileRows : jsonlFileRows;
  return new MappedSource(
    {
      description: `${spec.kind}:${spec.path}`,
      // The file name, not the mapping's name, so two files never share ids.
      idPrefix: () => `${spec.kind}:${fileName}`,
      loadMapping: () => loadMapping(spec.mappingPath),
      rows: () => rows(spec.path, fileName),
    },
    opts,
  );
}

import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { InputError } from '../../errors.js';
import type { RowProblem } from '../row-issues.js';

/** One resource read from the directory, or an input that could not be read as one. */
export type ResourceItem =
  | { kind: 'resource'; resource: Resource; location: string; fullUrl: string | null }
  | { kind: 'bad'; location: string; problem: RowProblem };

/** Bundle types that carry data to read; others (document, message, history…) are reported. */
const BUNDLE_TYPES = new Set(['collection', 'transaction', 'searchset', 'batch']);

/** The directory's *.json (a Bundle or one resource each) and *.ndjson (bulk export) files, sorted. */
export async function fhirFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((e: Error) => {
    throw new InputError(`cannot read FHIR directory ${dir}: ${e.message}`, { field: 'source' });
  });
  const files = names.filter((n) => /\.(nd)?json$/i.test(n)).sort();
  if (files.length === 0) throw new InputError(`FHIR directory ${dir} has no *.json or *.ndjson files`, { field: 'source' });
  return files;
}

const isResource = (v: unknown): v is Resource => typeof v === 'object' && v !== null && typeof (v as { resourceType?: unknown }).resourceType === 'string';

function* fromJson(value: unknown, location: string): Generator<ResourceItem> {
  if (!isResource(value)) {
    yield { kind: 'bad', location, problem: { category: 'not-a-resource', reason: 'JSON without a resourceType' } };
    return;
  }
  if (value.resourceType !== 'Bundle') {
    yield { kind: 'resource', resource: value, location, fullUrl: null };
    return;
  }
  const bundle = value as Bundle;
  if (!BUNDLE_TYPES.has(bundle.type)) {
    yield { kind: 'bad', location, problem: { category: 'unsupported-bundle-type', reason: `Bundle of type ${String(bundle.type)} (read: ${[...BUNDLE_TYPES].join(', ')})` } };
    return;
  }
  for (const [i, entry] of (bundle.entry ?? []).entries()) {
    const where = `${location} entry ${i}`;
    if (entry.resource === undefined) continue; // a transaction's DELETE has no resource: nothing to read
    if (!isResource(entry.resource)) yield { kind: 'bad', location: where, problem: { category: 'not-a-resource', reason: 'bundle entry without a resourceType' } };
    else yield* entry.resource.resourceType === 'Bundle' ? fromJson(entry.resource, where) : [{ kind: 'resource' as const, resource: entry.resource, location: where, fullUrl: entry.fullUrl ?? null }];
  }
}

/**
 * Every resource of the directory, file by file: a bundle file is parsed whole (one bundle
 * per patient is the common export), an ndjson file one line at a time.
 */
export async function* readFhirDir(dir: string): AsyncGenerator<ResourceItem> {
  for (const name of await fhirFiles(dir)) {
    const path = join(dir, name);
    if (/\.ndjson$/i.test(name)) {
      const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
      let n = 0;
      for await (const line of lines) {
        n++;
        if (line.trim() === '') continue;
        const parsed = parseJson(line);
        if (parsed.ok) yield* fromJson(parsed.value, `${name}:${n}`);
        else yield { kind: 'bad', location: `${name}:${n}`, problem: { category: 'bad-json', reason: parsed.reason } };
      }
      continue;
    }
    const parsed = parseJson(await readFile(path, 'utf8'));
    if (parsed.ok) yield* fromJson(parsed.value, name);
    else yield { kind: 'bad', location: name, problem: { category: 'bad-json', reason: parsed.reason } };
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    // The parser's message can quote the input: only its kind is reported, never patient text.
    return { ok: false, reason: `not valid JSON (${(e as Error).name})` };
  }
}

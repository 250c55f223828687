import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { z } from 'zod';
import type { ManifestationEdge } from '../src/domain/kg.js';
import { InputError } from '../src/errors.js';
import { augmentedFeature, type AugmentedPart } from './augment-features.js';
import type { ClusteredDisease } from './cluster-diseases.js';
import { normalizeName } from './text.js';

/**
 * External knowledge as L4a: (subject, relation, object) triples from a CSV (header
 * `subject,relation,object[,prevalence]`) or JSONL file, e.g.
 * `lumbar_spondylosis, has_symptom, stiffness_or_pain_in_the_lower_back` (MedRAG 4.1.2).
 * The subject must name a disease of the build (its name or an alias, any spelling that
 * normalises the same); other rows are counted as unmatched, not guessed. Without a
 * prevalence column the edge gets 0.5: "reported, frequency unknown".
 */
const TripleSchema = z.object({
  subject: z.string().min(1),
  relation: z.string().min(1),
  object: z.string().min(1),
  // CSV gives '' for an empty cell: that is 'unknown', not 0.
  prevalence: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().min(0).max(1).optional()),
});

export const UNKNOWN_PREVALENCE = 0.5;

export interface ImportedTriples extends AugmentedPart {
  rows: number;
  unmatched: number;
}

export async function importTriples(input: { path: string; diseases: readonly ClusteredDisease[] }): Promise<ImportedTriples> {
  const diseaseOf = new Map<string, string>();
  for (const d of input.diseases) for (const n of [d.name, ...d.aliases]) diseaseOf.set(normalizeName(n), d.id);
  const features = new Map<string, ReturnType<typeof augmentedFeature>>();
  const edges = new Map<string, ManifestationEdge>();
  let rows = 0;
  let unmatched = 0;
  for await (const [line, raw] of readRows(input.path)) {
    rows++;
    const t = TripleSchema.safeParse(raw);
    if (!t.success) throw new InputError(`${input.path}:${line}: not a (subject, relation, object) triple: ${t.error.issues[0]?.path.join('.')} ${t.error.issues[0]?.message}`, { field: 'triples' });
    const diseaseId = diseaseOf.get(normalizeName(t.data.subject));
    if (diseaseId === undefined) {
      unmatched++;
      continue;
    }
    const node = augmentedFeature(t.data.object);
    features.set(node.id, node);
    edges.set(`${diseaseId}|${node.id}`, { diseaseId, featureId: node.id, prevalence: t.data.prevalence ?? UNKNOWN_PREVALENCE, count: 0, source: 'triples' });
  }
  return { features: [...features.values()], manifestations: [...edges.values()], rows, unmatched };
}

async function* readRows(path: string): AsyncIterable<[number, unknown]> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  if (/\.jsonl?$/i.test(path)) {
    let n = 0;
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      n++;
      if (line.trim() === '') continue;
      try {
        yield [n, JSON.parse(line)];
      } catch {
        throw new InputError(`${path}:${n}: not valid JSON`, { field: 'triples' });
      }
    }
    return;
  }
  let n = 1;
  for await (const rec of stream.pipe(parse({ columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true }))) yield [++n, rec];
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../src/errors.js';

/**
 * The free-text vignette set (datasets/vignettes/dev.jsonl, issue 17): read and checked
 * against the DDXPlus dictionaries, so a typo in a condition key or an evidence code is a
 * clear error naming the line instead of a case that can never be right.
 */
/**
 * The labelled vignette sets that are not blind (cal.jsonl, written for calibration, and the five
 * dev sets the reader was tuned on): what the text calibration is fitted on. Never test*.jsonl.
 */
export const LABELLED_VIGNETTE_SETS: readonly string[] = ['cal', 'dev', 'dev-b', 'dev-c', 'dev-d', 'dev-e'].map((s) => `datasets/vignettes/${s}.jsonl`);

export const VIGNETTE_TAGS = ['negation', 'typo', 'abbrev', 'history', 'family', 'values', 'short', 'long'] as const;
export const VIGNETTE_STYLES = ['clinician', 'lay'] as const;

const VignetteSchema = z
  .object({
    id: z.string().regex(/^v\d{3,}$/, 'id must look like v001'),
    condition: z.string().min(1),
    style: z.enum(VIGNETTE_STYLES),
    tags: z.array(z.enum(VIGNETTE_TAGS)),
    text: z.string().trim().min(1),
    age: z.number().int().min(0).max(120).nullable(),
    sex: z.enum(['M', 'F']).nullable(),
    absentEvidences: z.array(z.string().regex(/^E_\d+$/, 'evidence codes look like E_91')),
  })
  .strict();

export type Vignette = z.infer<typeof VignetteSchema>;

/** What a vignette may refer to: release_conditions.json keys and release_evidences.json codes. */
export interface VignetteVocabulary {
  conditions: ReadonlySet<string>;
  evidences: ReadonlySet<string>;
}

export function parseVignettes(jsonl: string, vocab: VignetteVocabulary, where = 'vignettes'): Vignette[] {
  const out: Vignette[] = [];
  const ids = new Set<string>();
  jsonl.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const at = `${where}:${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new InputError(`${at}: not JSON (${(e as Error).message})`, { field: 'vignettes', cause: e });
    }
    const parsed = VignetteSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError(`${at}: ${issue.path.join('.') || 'line'}: ${issue.message}`, { field: 'vignettes' });
    }
    const v = parsed.data;
    if (ids.has(v.id)) throw new InputError(`${at}: duplicate id ${v.id}`, { field: 'vignettes' });
    ids.add(v.id);
    if (!vocab.conditions.has(v.condition)) throw new InputError(`${at}: condition '${v.condition}' is no key of release_conditions.json`, { field: 'vignettes' });
    const unknown = v.absentEvidences.filter((c) => !vocab.evidences.has(c));
    if (unknown.length > 0) throw new InputError(`${at}: absentEvidences ${unknown.join(', ')} not in release_evidences.json`, { field: 'vignettes' });
    if (v.absentEvidences.length > 0 && !v.tags.includes('negation')) throw new InputError(`${at}: absentEvidences given but no 'negation' tag`, { field: 'vignettes' });
    out.push(v);
  });
  if (out.length === 0) throw new InputError(`${where}: no vignettes`, { field: 'vignettes' });
  return out;
}

export async function readDdxplusVocabulary(ddxplusDir: string): Promise<VignetteVocabulary> {
  const read = async (f: string) => Object.keys(JSON.parse(await readFile(join(ddxplusDir, f), 'utf8')) as Record<string, unknown>);
  return { conditions: new Set(await read('release_conditions.json')), evidences: new Set(await read('release_evidences.json')) };
}

export async function loadVignettes(path: string, ddxplusDir: string): Promise<Vignette[]> {
  return parseVignettes(await readFile(path, 'utf8'), await readDdxplusVocabulary(ddxplusDir), path);
}

/** Keeps the vignettes named in `ids` (a --ids filter); an id that is not in the set is an error, not a silent skip. */
export function selectVignettes(all: readonly Vignette[], ids: readonly string[] | null): Vignette[] {
  if (ids === null) return [...all];
  const byId = new Map(all.map((v) => [v.id, v]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new InputError(`--ids: no vignette ${missing.join(', ')}`, { field: 'ids' });
  return ids.map((id) => byId.get(id)!);
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors.js';

/** Only the fields dxgraph reads; the official files carry more (kept out of memory). */
const evidenceSchema = z.object({
  name: z.string(),
  code_question: z.string(),
  question_en: z.string(),
  question_fr: z.string().optional(),
  is_antecedent: z.boolean(),
  data_type: z.enum(['B', 'C', 'M']),
  value_meaning: z.record(z.string(), z.object({ en: z.string(), fr: z.string().optional() })),
  'possible-values': z.array(z.union([z.string(), z.number()])),
});
const conditionSchema = z.object({
  condition_name: z.string(),
  'cond-name-eng': z.string(),
  'cond-name-fr': z.string().optional(),
  'icd10-id': z.string().nullable().optional(),
  // The evidences the DDXPlus generator may give a patient with this condition (values ignored).
  symptoms: z.record(z.string(), z.unknown()).optional(),
  antecedents: z.record(z.string(), z.unknown()).optional(),
});

export type EvidenceEntry = z.infer<typeof evidenceSchema>;

export interface ConditionEntry {
  /** Key of the entry in release_conditions.json. */
  key: string;
  nameEn: string;
  icd10: string | null;
  /** Evidence codes the release declares for the condition (symptoms, then antecedents). */
  evidenceCodes: string[];
}

export interface DdxplusDictionary {
  evidences: ReadonlyMap<string, EvidenceEntry>;
  conditions: readonly ConditionEntry[];
  /** Maps a PATHOLOGY string (English or French spelling, any case/accents) to its condition. */
  resolveCondition(name: string): ConditionEntry | null;
}

export const EVIDENCES_FILE = 'release_evidences.json';
export const CONDITIONS_FILE = 'release_conditions.json';

/** Accent-, case- and spacing-insensitive key: releases spell pathologies in EN or FR. */
export function conditionKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read DDXPlus dictionary ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`DDXPlus dictionary ${path} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
}

function parseEntries<T>(path: string, raw: unknown, schema: z.ZodType<T>): Map<string, T> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InputError(`${path}: expected a JSON object`);
  const out = new Map<string, T>();
  for (const [key, value] of Object.entries(raw)) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new InputError(`${path}: entry ${key}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
    out.set(key, parsed.data);
  }
  return out;
}

/** Loads the two official dictionaries from a DDXPlus directory. */
export async function loadDdxplusDictionary(dir: string): Promise<DdxplusDictionary> {
  const evPath = join(dir, EVIDENCES_FILE);
  const condPath = join(dir, CONDITIONS_FILE);
  const evidences = parseEntries(evPath, await readJson(evPath), evidenceSchema);
  const rawConditions = parseEntries(condPath, await readJson(condPath), conditionSchema);
  const conditions: ConditionEntry[] = [];
  const byName = new Map<string, ConditionEntry>();
  for (const [key, c] of rawConditions) {
    const evidenceCodes = [...Object.keys(c.symptoms ?? {}), ...Object.keys(c.antecedents ?? {})];
    const entry: ConditionEntry = { key, nameEn: c['cond-name-eng'], icd10: c['icd10-id']?.trim().toUpperCase() || null, evidenceCodes };
    conditions.push(entry);
    for (const alias of [key, c.condition_name, c['cond-name-eng'], c['cond-name-fr']]) {
      if (alias !== undefined) byName.set(conditionKey(alias), entry);
    }
  }
  return {
    evidences,
    conditions,
    resolveCondition: (name) => byName.get(conditionKey(name)) ?? null,
  };
}

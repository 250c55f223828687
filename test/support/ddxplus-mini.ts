/**
 * Minimal DDXPlus reader for the follow-up tests and bench until the sources engineer's
 * importer and `src/sources/split.ts` land (then switch to those). Reads the release
 * CSV + evidence dictionary into NormalizedRecords with the same finding semantics.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Finding, NormalizedRecord } from '../../src/domain/record.js';
import type { AnswerType } from '../../src/followups/question-model.js';
import { hashString } from '../../src/followups/rng.js';

interface Evidence {
  question_en: string;
  is_antecedent: boolean;
  data_type: 'B' | 'C' | 'M';
  value_meaning: Record<string, { en: string }>;
  'possible-values': (string | number)[];
}

export const DDXPLUS_DIR = fileURLToPath(new URL('../../datasets/ddxplus', import.meta.url)); // the copy shipped in the repo

export interface MiniDdxplus {
  records: NormalizedRecord[];
  hints: Map<string, AnswerType>;
}

function finding(token: string, evs: Record<string, Evidence>): Finding {
  const [code, value] = token.split('_@_') as [string, string | undefined];
  const ev = evs[code];
  if (!ev) throw new Error(`unknown evidence ${code}`);
  const base = { code, question: ev.question_en, antecedent: ev.is_antecedent };
  if (value === undefined) return { ...base, text: `${ev.question_en} yes`, polarity: 'present', valueCode: null, valueText: 'yes' };
  const meaning = ev.value_meaning[value]?.en ?? value;
  const valueText = meaning === 'Y' ? 'yes' : meaning === 'N' ? 'no' : meaning;
  const polarity = meaning === 'N' || meaning === 'nowhere' ? 'absent' : 'present';
  return { ...base, text: `${ev.question_en} ${valueText}`, polarity, valueCode: value, valueText };
}

export function loadMiniDdxplus(dir = DDXPLUS_DIR, limit = Infinity): MiniDdxplus {
  const evs = JSON.parse(readFileSync(join(dir, 'release_evidences.json'), 'utf8')) as Record<string, Evidence>;
  const rows = parse(readFileSync(join(dir, 'patients-dev.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
  const records = rows.slice(0, limit).map((r, i): NormalizedRecord => {
    const tokens = JSON.parse(r['EVIDENCES']!.replace(/'/g, '"')) as string[];
    const ini = r['INITIAL_EVIDENCE']!;
    return {
      id: `ddxplus:dev:${i + 1}`,
      diagnosis: r['PATHOLOGY']!,
      icd10: null,
      age: Number(r['AGE']),
      sex: r['SEX'] === 'M' ? 'M' : 'F',
      findings: tokens.map((t) => finding(t, evs)),
      initialFindingCode: ini,
      text: '',
      location: `patients-dev.csv:${i + 2}`,
    };
  });
  const hints = new Map<string, AnswerType>();
  for (const [code, ev] of Object.entries(evs)) {
    const numeric = typeof ev['possible-values'][0] === 'number';
    hints.set(code, ev.data_type === 'B' ? 'yes-no' : ev.data_type === 'M' ? 'several-of' : numeric ? 'number' : 'one-of');
  }
  return { records, hints };
}

/** Patient-level split (each DDXPlus row is one patient): stable hash of the id, `trainShare` in %. */
export function isTrain(recordId: string, trainShare = 60, salt = 'split-v1'): boolean {
  return hashString(`${salt}:${recordId}`) % 100 < trainShare;
}

import { access, readFile } from 'node:fs/promises';
import { InputError } from '../../src/errors.js';
import { mulberry32 } from './rng.js';

/**
 * The labelled real clinical notes of `../shared/datasets/mtsamples/` (issue 47): read for
 * measuring only, never copied into the repository (their README's terms). One note: its key,
 * principal diagnosis and whole text (its diagnosis section included; the views cut it).
 */
export interface RealNote {
  id: string;
  diagnosis: string;
  text: string;
}

export const DEFAULT_REAL_NOTES = '../shared/datasets/mtsamples/labelled-train.jsonl';

export async function loadRealNotes(path: string): Promise<RealNote[]> {
  try {
    await access(path);
  } catch {
    throw new InputError(`${path}: no labelled real notes there (MTSamples, issue 47: ../shared/datasets/mtsamples/labelled-train.jsonl beside the repo, or pass --notes <path>)`, { field: 'notes' });
  }
  const rows = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  return rows.map((l, i) => {
    const r = JSON.parse(l) as Partial<RealNote>;
    if (typeof r.id !== 'string' || typeof r.diagnosis !== 'string' || typeof r.text !== 'string') throw new InputError(`${path}:${i + 1}: a note needs string id, diagnosis and text`, { field: 'notes' });
    return { id: r.id, diagnosis: r.diagnosis, text: r.text };
  });
}

/**
 * Stratified folds: each diagnosis's notes shuffled (seeded) and dealt round the folds, the deal
 * continuing from one diagnosis to the next so fold sizes differ by at most one. Every note is in
 * exactly one fold, so each is held out once.
 */
export function stratifiedFolds<T extends { diagnosis: string }>(notes: readonly T[], k: number, seed: number): T[][] {
  if (!Number.isInteger(k) || k < 2) throw new InputError(`folds must be an integer of at least 2, got ${k}`, { field: 'folds' });
  const rng = mulberry32(seed);
  const byDiagnosis = new Map<string, T[]>();
  for (const n of notes) byDiagnosis.set(n.diagnosis, [...(byDiagnosis.get(n.diagnosis) ?? []), n]);
  const folds: T[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const d of [...byDiagnosis.keys()].sort()) {
    const group = byDiagnosis.get(d)!;
    for (let i = group.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [group[i], group[j]] = [group[j]!, group[i]!];
    }
    for (const n of group) folds[next++ % k]!.push(n);
  }
  return folds;
}

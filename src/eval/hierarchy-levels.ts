/**
 * Places diseases in the two hierarchies the accuracy levels are read from: the KG's
 * own (Disease → Subcategory → Category, MedRAG's L3/L2/L1) and ICD-10 (3-character
 * category as L2, chapter as L1; DESIGN.md §5), so a self-built hierarchy that makes
 * L1/L2 easy can be compared with an external one.
 */
import { icd10Category, icd10Chapter } from '../../kg-build/hierarchy-icd10.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { DiseaseLevels, TruthLevels } from './types.js';

/** ICD-10 levels of a code ("j17, j18" → block J17, chapter X); nulls when the code is unusable. */
export function icdLevels(code: string | null): { icdBlock: string | null; icdChapter: string | null } {
  const block = icd10Category(code);
  const chapter = block ? icd10Chapter(block) : null;
  return chapter ? { icdBlock: block, icdChapter: chapter.roman } : { icdBlock: null, icdChapter: null };
}

export type HierarchySnapshot = Pick<KgSnapshot, 'diseases' | 'subcategories' | 'diseaseIndex' | 'diseaseSubcategory' | 'subcategoryCategory' | 'categories'>;

/** Levels of a KG disease by id; null when the KG has no such disease. */
export function diseaseLevels(s: HierarchySnapshot, diseaseId: string): DiseaseLevels | null {
  const d = s.diseaseIndex.get(diseaseId);
  if (d === undefined) return null;
  const node = s.diseases[d]!;
  const sub = s.diseaseSubcategory[d] ?? -1;
  const cat = sub >= 0 ? (s.subcategoryCategory[sub] ?? -1) : -1;
  return {
    diseaseId: node.id,
    name: node.name,
    subcategoryId: sub >= 0 ? s.subcategories[sub]!.id : null,
    categoryId: cat >= 0 ? s.categories[cat]!.id : null,
    ...icdLevels(node.icd10),
  };
}

const norm = (s: string): string => s.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Maps a test record's raw diagnosis onto the KG's diseases the way the build clustered
 * them: by name or by any alias (raw strings merged into the disease), case-insensitively.
 * The record's own ICD-10 code, when present, is the truth for the ICD-10 levels.
 */
export function truthResolver(s: HierarchySnapshot): (rec: { diagnosis: string; icd10: string | null }) => TruthLevels {
  const byName = new Map<string, string>();
  for (const d of s.diseases) for (const name of [d.name, ...(d.aliases ?? [])]) if (!byName.has(norm(name))) byName.set(norm(name), d.id);
  return (rec) => {
    const id = byName.get(norm(rec.diagnosis));
    const levels = id !== undefined ? diseaseLevels(s, id) : null;
    const icd = rec.icd10 !== null ? icdLevels(rec.icd10) : { icdBlock: levels?.icdBlock ?? null, icdChapter: levels?.icdChapter ?? null };
    if (levels) return { ...levels, ...icd };
    return { diseaseId: null, name: rec.diagnosis, subcategoryId: null, categoryId: null, ...icd };
  };
}

import type { CategoryNode, SubcategoryNode } from '../src/domain/kg.js';
import type { ClusteredDisease } from './cluster-diseases.js';
import { blockOf, chapterOf } from './hierarchy-icd10-blocks.js';
import type { Hierarchy, HierarchyInput } from './hierarchy-types.js';

/**
 * ICD-10 hierarchy: L1 = ICD-10 chapter, L2 = ICD-10 block (e.g. J09-J18 "Influenza and
 * pneumonia"), both named by their WHO titles (hierarchy-icd10-blocks.ts). A code whose
 * block is not in the shipped table falls back to its 3-character category as the L2, named
 * by the code and its diseases. Diseases without a usable code go to "ICD-10 unclassified".
 * A list of codes ("j17, j18") uses the first one.
 */

/** "j17, j18" -> "J17"; null when no ICD-10-shaped code is present. */
export function icd10Category(code: string | null): string | null {
  const m = /([A-Za-z])\s*(\d{2})/.exec(code ?? '');
  return m ? `${m[1]!.toUpperCase()}${m[2]}` : null;
}

export function icd10Chapter(category: string): { roman: string; title: string } | null {
  const c = chapterOf(category);
  return c ? { roman: c.roman, title: c.title } : null;
}

/** Diseases whose code places them in an ICD-10 chapter (what the icd10 mode can group). */
export function icd10Coverage(diseases: readonly Pick<ClusteredDisease, 'icd10'>[]): { coded: number; total: number } {
  const coded = diseases.filter((d) => {
    const c = icd10Category(d.icd10);
    return c !== null && chapterOf(c) !== null;
  }).length;
  return { coded, total: diseases.length };
}

interface Group {
  name: string;
  categoryId: string;
  diseases: string[];
  /** A 3-character category standing in for its block: named with its diseases too. */
  listDiseases: boolean;
}

export function icd10Hierarchy(input: HierarchyInput): Hierarchy {
  const subs = new Map<string, Group>();
  const cats = new Map<string, CategoryNode>();
  const subcategoryOf = new Map<string, string>();
  for (const d of [...input.diseases].sort((a, b) => a.id.localeCompare(b.id))) {
    const cat3 = icd10Category(d.icd10);
    const chapter = cat3 ? chapterOf(cat3) : null;
    const catId = chapter ? `cat:icd10-${chapter.roman.toLowerCase()}` : 'cat:icd10-unclassified';
    if (!cats.has(catId)) cats.set(catId, { id: catId, name: chapter ? `${chapter.title} (ICD-10 chapter ${chapter.roman})` : 'ICD-10 unclassified' });
    const block = cat3 && chapter ? blockOf(cat3) : null;
    let subId = 'sub:icd10-unclassified';
    let name = 'ICD-10 unclassified';
    let listDiseases = false;
    if (block) {
      subId = `sub:icd10-${block.from.toLowerCase()}-${block.to.toLowerCase()}`;
      name = `${block.title} (${block.from}-${block.to})`;
    } else if (cat3 && chapter) {
      // Not in the shipped block table: the 3-character category stands in for the block.
      subId = `sub:icd10-${cat3.toLowerCase()}`;
      name = `ICD-10 ${cat3}`;
      listDiseases = true;
    }
    const sub = subs.get(subId) ?? { name, categoryId: catId, diseases: [], listDiseases };
    sub.diseases.push(d.name);
    subs.set(subId, sub);
    subcategoryOf.set(d.id, subId);
  }
  const subcategories: SubcategoryNode[] = [...subs.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([id, s]) => ({ id, name: s.listDiseases ? `${s.name}: ${s.diseases.join(', ')}` : s.name, categoryId: s.categoryId }));
  const categories = [...cats.values()].sort((a, b) => a.id.localeCompare(b.id));
  return { mode: 'icd10', categories, subcategories, subcategoryOf };
}

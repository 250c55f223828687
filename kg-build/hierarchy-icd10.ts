import type { CategoryNode, SubcategoryNode } from '../src/domain/kg.js';
import type { Hierarchy, HierarchyInput } from './hierarchy-types.js';

/**
 * ICD-10 hierarchy: L1 = ICD-10 chapter (from the code's letter and number range),
 * L2 = the 3-character category (e.g. I20 holds stable and unstable angina). The full
 * ICD-10 block titles are not shipped, so a subcategory is named by its code and its
 * diseases. Diseases without a usable code go to "ICD-10 unclassified". A list of codes
 * ("j17, j18") uses the first one.
 */
const CHAPTERS: ReadonlyArray<readonly [from: string, to: string, roman: string, title: string]> = [
  ['A00', 'B99', 'I', 'Certain infectious and parasitic diseases'],
  ['C00', 'D48', 'II', 'Neoplasms'],
  ['D50', 'D89', 'III', 'Diseases of the blood and immune mechanism'],
  ['E00', 'E90', 'IV', 'Endocrine, nutritional and metabolic diseases'],
  ['F00', 'F99', 'V', 'Mental and behavioural disorders'],
  ['G00', 'G99', 'VI', 'Diseases of the nervous system'],
  ['H00', 'H59', 'VII', 'Diseases of the eye and adnexa'],
  ['H60', 'H95', 'VIII', 'Diseases of the ear and mastoid process'],
  ['I00', 'I99', 'IX', 'Diseases of the circulatory system'],
  ['J00', 'J99', 'X', 'Diseases of the respiratory system'],
  ['K00', 'K93', 'XI', 'Diseases of the digestive system'],
  ['L00', 'L99', 'XII', 'Diseases of the skin and subcutaneous tissue'],
  ['M00', 'M99', 'XIII', 'Diseases of the musculoskeletal system and connective tissue'],
  ['N00', 'N99', 'XIV', 'Diseases of the genitourinary system'],
  ['O00', 'O99', 'XV', 'Pregnancy, childbirth and the puerperium'],
  ['P00', 'P96', 'XVI', 'Conditions originating in the perinatal period'],
  ['Q00', 'Q99', 'XVII', 'Congenital malformations and chromosomal abnormalities'],
  ['R00', 'R99', 'XVIII', 'Symptoms, signs and abnormal findings, not elsewhere classified'],
  ['S00', 'T98', 'XIX', 'Injury, poisoning and other consequences of external causes'],
  ['V01', 'Y98', 'XX', 'External causes of morbidity and mortality'],
  ['Z00', 'Z99', 'XXI', 'Factors influencing health status and contact with health services'],
  ['U00', 'U99', 'XXII', 'Codes for special purposes'],
];

/** "j17, j18" -> "J17"; null when no ICD-10-shaped code is present. */
export function icd10Category(code: string | null): string | null {
  const m = /([A-Za-z])\s*(\d{2})/.exec(code ?? '');
  return m ? `${m[1]!.toUpperCase()}${m[2]}` : null;
}

export function icd10Chapter(category: string): { roman: string; title: string } | null {
  const hit = CHAPTERS.find(([from, to]) => category >= from && category <= to);
  return hit ? { roman: hit[2], title: hit[3] } : null;
}

export function icd10Hierarchy(input: HierarchyInput): Hierarchy {
  const subs = new Map<string, { name: string; categoryId: string; diseases: string[] }>();
  const cats = new Map<string, CategoryNode>();
  const subcategoryOf = new Map<string, string>();
  for (const d of [...input.diseases].sort((a, b) => a.id.localeCompare(b.id))) {
    const cat3 = icd10Category(d.icd10);
    const chapter = cat3 ? icd10Chapter(cat3) : null;
    const catId = chapter ? `cat:icd10-${chapter.roman.toLowerCase()}` : 'cat:icd10-unclassified';
    if (!cats.has(catId)) cats.set(catId, { id: catId, name: chapter ? `ICD-10 chapter ${chapter.roman}: ${chapter.title}` : 'ICD-10 unclassified' });
    const subId = cat3 && chapter ? `sub:icd10-${cat3.toLowerCase()}` : 'sub:icd10-unclassified';
    const sub = subs.get(subId) ?? { name: cat3 ?? 'unclassified', categoryId: catId, diseases: [] };
    sub.diseases.push(d.name);
    subs.set(subId, sub);
    subcategoryOf.set(d.id, subId);
  }
  const subcategories: SubcategoryNode[] = [...subs.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([id, s]) => ({ id, name: `ICD-10 ${s.name}: ${s.diseases.join(', ')}`, categoryId: s.categoryId }));
  const categories = [...cats.values()].sort((a, b) => a.id.localeCompare(b.id));
  return { mode: 'icd10', categories, subcategories, subcategoryOf };
}

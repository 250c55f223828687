import { InputError } from '../src/errors.js';
import type { Hierarchy, HierarchyInput, HierarchySizes } from './hierarchy-types.js';
import { chooseHierarchy, type HierarchyRequest } from './hierarchy-choice.js';
import { icd10Hierarchy } from './hierarchy-icd10.js';
import type { ConceptNames } from './hierarchy-names.js';
import { statisticalHierarchy, type StatisticalOptions } from './hierarchy-statistical.js';

// MedRAG eq. 4: G_D = Θ(E_Li, M_h, E), i = 3, 2 — hierarchical aggregation of diseases into L2 and L1.

export type { HierarchyRequest } from './hierarchy-choice.js';

export interface AggregateOptions {
  mode: HierarchyRequest;
  sizes: HierarchySizes;
  statistical?: Partial<StatisticalOptions>;
  /** The LLM strategy, present only when a chat model is configured (see hierarchy-llm.ts). */
  llm?: (input: HierarchyInput, sizes: HierarchySizes) => Promise<Hierarchy>;
  /** Canonical concept phrases (a lexicon) for statistical group names; absent = cut from the questions. */
  names?: ConceptNames | null;
}

export async function aggregateHierarchy(input: HierarchyInput, opts: AggregateOptions): Promise<Hierarchy> {
  const { mode, reason } = chooseHierarchy({ requested: opts.mode, diseases: input.diseases, llmConfigured: opts.llm !== undefined });
  let h: Hierarchy;
  if (mode === 'llm') {
    if (!opts.llm) throw new InputError('--hierarchy llm needs a chat model: set OPENAI_BASE_URL or OPENAI_API_KEY (DXGRAPH_LLM)', { field: 'hierarchy' });
    h = await opts.llm(input, opts.sizes);
  } else if (mode === 'icd10') {
    if (!input.diseases.some((d) => d.icd10)) throw new InputError('--hierarchy icd10: the source has no ICD-10 codes', { field: 'hierarchy' });
    h = icd10Hierarchy(input);
  } else h = statisticalHierarchy(input, opts.sizes, opts.statistical, opts.names ?? null);
  checkHierarchy(input, h);
  return { ...h, reason };
}

/** The invariant of eq. 4: every disease in exactly one subcategory, every subcategory in one existing category, none empty. */
export function checkHierarchy(input: HierarchyInput, h: Hierarchy): void {
  const subIds = new Set(h.subcategories.map((s) => s.id));
  const catIds = new Set(h.categories.map((c) => c.id));
  const problems: string[] = [];
  if (subIds.size !== h.subcategories.length) problems.push('duplicate subcategory ids');
  if (catIds.size !== h.categories.length) problems.push('duplicate category ids');
  for (const d of input.diseases) {
    const s = h.subcategoryOf.get(d.id);
    if (s === undefined) problems.push(`disease ${d.id} has no subcategory`);
    else if (!subIds.has(s)) problems.push(`disease ${d.id} points to unknown ${s}`);
  }
  const used = new Set(h.subcategoryOf.values());
  for (const s of h.subcategories) {
    if (!catIds.has(s.categoryId)) problems.push(`subcategory ${s.id} points to unknown ${s.categoryId}`);
    if (!used.has(s.id)) problems.push(`subcategory ${s.id} is empty`);
  }
  const usedCats = new Set(h.subcategories.map((s) => s.categoryId));
  for (const c of h.categories) if (!usedCats.has(c.id)) problems.push(`category ${c.id} is empty`);
  if (problems.length > 0) throw new InputError(`hierarchy (${h.mode}) is inconsistent: ${problems.slice(0, 5).join('; ')}`, { field: 'hierarchy' });
}

import type { Embeddings } from '@langchain/core/embeddings';
import { z } from 'zod';
import type { CategoryNode, SubcategoryNode } from '../src/domain/kg.js';
import type { Hierarchy, HierarchyInput, HierarchySizes } from './hierarchy-types.js';
import { resolveSizes } from './hierarchy-types.js';
import { askJson, type BuildLlm } from './llm-types.js';
import { topFeatureLabels } from './profiles.js';
import { normalizeName, uniqueSlugIds } from './text.js';
import { dot, embedAll } from './vectors.js';

/**
 * MedRAG eq. 4 with M_h: the LLM proposes subcategory and category topics
 * (prompts/hierarchy-topics.md, the paper's topic prompt); diseases are then assigned to
 * the topics. A disease the LLM itself listed under a topic goes there; any other disease
 * goes to the most similar topic (embedding of "name: description" vs the disease's name
 * and main manifestations). Topics left empty are dropped.
 */
export const TopicsSchema = z.object({
  categories: z
    .array(
      z.object({
        name: z.string().min(1),
        subcategories: z.array(z.object({ name: z.string().min(1), description: z.string().default(''), diseases: z.array(z.string()).default([]) })).min(1),
      }),
    )
    .min(1),
});

export async function llmHierarchy(input: HierarchyInput & { llm: BuildLlm; embeddings: Embeddings }, sizes: HierarchySizes): Promise<Hierarchy> {
  const { l2, l1 } = resolveSizes(input.diseases.length, sizes);
  const tops = topFeatureLabels(input.features, input.manifestations, 5);
  const diseases = [...input.diseases].sort((a, b) => a.id.localeCompare(b.id));
  const listing = diseases.map((d) => `- ${d.name}: ${(tops.get(d.id) ?? []).join('; ')}`).join('\n');
  const topics = await askJson(input.llm, 'hierarchy-topics', { diseases: listing, subcategories: l2, categories: l1 }, TopicsSchema);

  const subs = topics.categories.flatMap((c, ci) => c.subcategories.map((s) => ({ ...s, ci })));
  const byName = new Map(diseases.map((d) => [normalizeName(d.name), d.id]));
  const chosen = new Map<string, number>();
  subs.forEach((s, si) => {
    for (const n of s.diseases) {
      const id = byName.get(normalizeName(n));
      if (id !== undefined && !chosen.has(id)) chosen.set(id, si);
    }
  });
  const rest = diseases.filter((d) => !chosen.has(d.id));
  if (rest.length > 0) {
    const topicVecs = await embedAll(input.embeddings, subs.map((s) => `${s.name}: ${s.description}`));
    const diseaseVecs = await embedAll(input.embeddings, rest.map((d) => `${d.name}: ${(tops.get(d.id) ?? []).join('; ')}`));
    rest.forEach((d, i) => {
      let best = 0;
      topicVecs.forEach((t, j) => {
        if (dot(t, diseaseVecs[i]!) > dot(topicVecs[best]!, diseaseVecs[i]!)) best = j;
      });
      chosen.set(d.id, best);
    });
  }

  const usedSubs = [...new Set(chosen.values())].sort((a, b) => a - b);
  const usedCats = [...new Set(usedSubs.map((si) => subs[si]!.ci))].sort((a, b) => a - b);
  const catIds = uniqueSlugIds('cat', usedCats.map((ci) => topics.categories[ci]!.name));
  const subIds = uniqueSlugIds('sub', usedSubs.map((si) => subs[si]!.name));
  const categories: CategoryNode[] = usedCats.map((ci, k) => ({ id: catIds[k]!, name: topics.categories[ci]!.name }));
  const subcategories: SubcategoryNode[] = usedSubs.map((si, k) => ({ id: subIds[k]!, name: subs[si]!.name, categoryId: catIds[usedCats.indexOf(subs[si]!.ci)]! }));
  const subcategoryOf = new Map([...chosen.entries()].map(([id, si]) => [id, subIds[usedSubs.indexOf(si)]!]));
  return { mode: 'llm', categories, subcategories, subcategoryOf };
}

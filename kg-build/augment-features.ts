import { z } from 'zod';
import type { FeatureNode, ManifestationEdge } from '../src/domain/kg.js';
import type { ClusteredDisease } from './cluster-diseases.js';
import { mapLimit } from './concurrency.js';
import { featureIdOf } from './feature-key.js';
import { askJson, type BuildLlm } from './llm-types.js';
import { normalizeName } from './text.js';

// MedRAG eq. 5-6: {e_L3i} --M_a(p_a, e_L3i)--> {e_L4a_ij}; E_L4 = E_L4d ∪ E_L4a.

export const AugmentSchema = z.object({
  features: z
    .array(z.object({ relation: z.string().min(1), feature: z.string().min(1), prevalence: z.number().min(0).max(1) }))
    .max(20),
});

export interface AugmentedPart {
  features: FeatureNode[];
  manifestations: ManifestationEdge[];
}

/** An L4a feature node; the same phrase from two diseases (or a triples file) is one node. */
export function augmentedFeature(phrase: string): FeatureNode {
  const text = phrase.replace(/_/g, ' ').trim();
  return { id: featureIdOf(`a:${normalizeName(text)}`), text, kind: 'augmented', code: null, valueCode: null, question: null, valueText: null, antecedent: null };
}

export async function augmentFeatures(input: {
  diseases: readonly ClusteredDisease[];
  llm: BuildLlm;
  /** disease id -> labels of its main EHR features, so the LLM adds what the records lack. */
  known?: ReadonlyMap<string, string[]>;
  concurrency?: number;
}): Promise<AugmentedPart> {
  const replies = await mapLimit(input.diseases, input.concurrency ?? input.llm.concurrency ?? 4, (d) =>
    askJson(input.llm, 'augment-features', { disease: d.name, known: (input.known?.get(d.id) ?? []).join('; ') || '(none)' }, AugmentSchema),
  );
  const features = new Map<string, FeatureNode>();
  const manifestations = new Map<string, ManifestationEdge>();
  input.diseases.forEach((d, i) => {
    for (const f of replies[i]!.features) {
      const node = augmentedFeature(f.feature);
      if (node.text === '') continue;
      features.set(node.id, node);
      const key = `${d.id}|${node.id}`;
      if (!manifestations.has(key)) manifestations.set(key, { diseaseId: d.id, featureId: node.id, prevalence: f.prevalence, count: 0, source: 'llm' });
    }
  });
  return { features: [...features.values()], manifestations: [...manifestations.values()] };
}

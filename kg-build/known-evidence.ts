import type { DiseaseKnowledge } from '../src/sources/types.js';
import type { DiseaseClusters } from './cluster-diseases.js';

/**
 * Attaches the source's curated knowledge of each clustered disease's findings
 * (RecordSource.diseaseKnowledge): `knownEvidence` codes with their `knownRates`, and where they
 * come from. Of the raw diagnosis strings merged into a disease, the first the source knows
 * answers (the same condition under another spelling). A disease the source knows nothing of gets
 * null, as does every disease when the source has no knowledge.
 */
export function attachKnownEvidence(clusters: DiseaseClusters, knowledge: DiseaseKnowledge | null): DiseaseClusters {
  if (knowledge === null) return clusters;
  const known = new Map<string, NonNullable<ReturnType<DiseaseKnowledge>>>();
  for (const [raw, id] of clusters.diseaseOf) {
    if (known.has(id)) continue;
    const k = knowledge(raw);
    if (k !== null && Object.keys(k.rates).length > 0) known.set(id, k);
  }
  return {
    ...clusters,
    diseases: clusters.diseases.map((d) => {
      const k = known.get(d.id);
      if (!k) return { ...d, knownEvidence: null, knownRates: null, knowledgeSource: null };
      const codes = Object.keys(k.rates).sort();
      return { ...d, knownEvidence: codes, knownRates: codes.map((c) => k.rates[c]!), knowledgeSource: k.source };
    }),
  };
}

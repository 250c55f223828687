import type { DiseaseNode } from '../src/domain/kg.js';
import type { DiseaseKnowledge, KnownEvidence } from '../src/sources/types.js';
import type { DiseaseClusters } from './cluster-diseases.js';

/**
 * Attaches the source's curated knowledge of each clustered disease's findings
 * (RecordSource.diseaseKnowledge): `knownEvidence` codes with their `knownRates`, and where they
 * come from. Of the raw diagnosis strings merged into a disease, the first the source knows
 * answers: they are one condition's spellings (declared evidence takes their union, but rates of
 * two conditions cannot be pooled; a cluster that merged two conditions keeps the first's). A
 * disease the source knows nothing of gets null, as does every disease when the source has no
 * knowledge.
 */
export function attachKnownEvidence(clusters: DiseaseClusters, knowledge: DiseaseKnowledge | null): DiseaseClusters {
  if (knowledge === null) return clusters;
  const known = new Map<string, KnownEvidence>();
  for (const [raw, id] of clusters.diseaseOf) {
    if (known.has(id)) continue;
    const k = knowledge(raw);
    if (k !== null && Object.keys(k.rates).length > 0) known.set(id, k);
  }
  return {
    ...clusters,
    diseases: clusters.diseases.map((d) => ({ ...d, ...knownEvidenceFields(known.get(d.id) ?? null) })),
  };
}

/** A disease's curated rates as its node stores them: codes sorted, rates aligned (all null without knowledge). */
export function knownEvidenceFields(k: KnownEvidence | null): Pick<DiseaseNode, 'knownEvidence' | 'knownRates' | 'knowledgeSource'> {
  if (k === null) return { knownEvidence: null, knownRates: null, knowledgeSource: null };
  const codes = Object.keys(k.rates).sort();
  return { knownEvidence: codes, knownRates: codes.map((c) => k.rates[c]!), knowledgeSource: k.source };
}

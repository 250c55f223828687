import type { FeatureMatch, InputFinding } from '../query/contracts.js';
import { conceptIndexFor } from './concept-index.js';
import { tokenize } from './normalize.js';
import { resolveFeatures } from './resolve-features.js';
import type { ConceptLexicon } from './types.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';

/**
 * The concept layer as a matching stage: free-text findings → KG features through surface
 * forms (lexicon + labels), before any embedding. Returns per finding its matches (empty when
 * no concept was recognised, so the caller can fall back to embeddings).
 */
export interface MatchConceptsInput {
  findings: InputFinding[];
  /** The request text the findings' clause spans point into (null: findings came structured). */
  text: string | null;
}

export function matchConcepts(deps: { snapshot: KgSnapshot; lexicon: ConceptLexicon | null }, input: MatchConceptsInput): Map<number, FeatureMatch[]> {
  const index = conceptIndexFor(deps.snapshot, deps.lexicon);
  const out = new Map<number, FeatureMatch[]>();
  input.findings.forEach((finding, i) => {
    if (finding.code || !/[a-z]/i.test(finding.text)) return;
    const clause = input.text && finding.clause ? input.text.slice(finding.clause.start, finding.clause.end) : '';
    const found = resolveFeatures(index, { finding, tokens: tokenize(finding.text), clauseTokens: clause ? tokenize(clause) : [] });
    if (found.length === 0) return;
    const best = new Map<number, FeatureMatch>();
    for (const c of found) {
      const node = deps.snapshot.features[c.feature]!;
      const m: FeatureMatch = { findingIndex: i, featureId: node.id, featureText: node.text, similarity: Math.round(c.similarity * 1000) / 1000, polarity: c.polarity, alternatives: `${i}:${c.alternatives}`, via: c.via };
      const prev = best.get(c.feature);
      if (!prev || m.similarity > prev.similarity) best.set(c.feature, m);
    }
    out.set(i, [...best.values()]);
  });
  return out;
}

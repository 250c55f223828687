/** The offline evidence reasoner's prior weights (docs/query.md); an absent one keeps the reasoner's default. */
export interface PriorWeightsConfig {
  voteWeight?: number;
  keyDifferenceWeight?: number;
  knnWeight?: number;
  profileWeight?: number;
  /** m of scoring-knowledge.ts ("knowledge=0": free text ignores the source's curated rates). */
  knowledgeRecords?: number;
}

const PRIOR_NAMES: Readonly<Record<string, keyof PriorWeightsConfig>> = { vote: 'voteWeight', keyDifferences: 'keyDifferenceWeight', knn: 'knnWeight', profiles: 'profileWeight', knowledge: 'knowledgeRecords' };

/** DXGRAPH_PRIOR_WEIGHTS ("vote=0.5,knn=1", its form checked by the schema) as the reasoner's weights; unset = {}. */
export function priorWeights(spec: string | undefined): PriorWeightsConfig {
  const out: PriorWeightsConfig = {};
  for (const part of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    out[PRIOR_NAMES[name!.trim()]!] = Number(value);
  }
  return out;
}

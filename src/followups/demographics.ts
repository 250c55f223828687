import { ageBand, emptyTally, logCategorical, tally } from '../domain/demographics.js';
/**
 * Optional age/sex likelihoods per disease. DDXPlus's interactive protocol starts from
 * age, sex and the chief complaint, and several pathologies are age- or sex-bound
 * (croup, bronchiolitis), so the simulation estimates them from training records.
 * A KG without demographics simply has none (the consultation then ignores age/sex).
 */
export interface Demographics {
  age: number | null;
  sex: 'M' | 'F' | null;
}

// The age bands are the KG's (src/domain/demographics.ts): one definition for the build's
// per-disease counts, the evidence reasoner and this model.
export { ageBand } from '../domain/demographics.js';

export interface DemographicModel {
  /** log P(age band, sex | d) per disease index (independent, smoothed); zeros when unknown. */
  logLikelihood(d: Demographics): Float64Array;
}

export interface DemographicCounts {
  diseaseCount: number;
  /** [disease][band] counts and [disease][0=M,1=F] counts. */
  ageCounts: number[][];
  sexCounts: number[][];
}

export function emptyDemographicCounts(diseaseCount: number): DemographicCounts {
  return {
    diseaseCount,
    ageCounts: Array.from({ length: diseaseCount }, () => emptyTally().ageBands),
    sexCounts: Array.from({ length: diseaseCount }, () => emptyTally().sexCounts),
  };
}

export function countDemographics(c: DemographicCounts, diseaseIndex: number, d: Demographics): void {
  tally({ ageBands: c.ageCounts[diseaseIndex]!, sexCounts: c.sexCounts[diseaseIndex]! }, d);
}

/** Lidstone-smoothed categorical likelihoods from counts (alpha per cell). */
export function demographicModel(c: DemographicCounts, alpha = 1): DemographicModel {
  const logCat = (row: number[], k: number): number => logCategorical(row, k, alpha);
  return {
    logLikelihood(d) {
      const out = new Float64Array(c.diseaseCount);
      for (let i = 0; i < c.diseaseCount; i++) {
        if (d.age !== null && d.age >= 0) out[i]! += logCat(c.ageCounts[i]!, ageBand(d.age));
        if (d.sex !== null) out[i]! += logCat(c.sexCounts[i]!, d.sex === 'M' ? 0 : 1);
      }
      return out;
    },
  };
}

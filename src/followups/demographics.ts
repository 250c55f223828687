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

/** Age bands (upper bounds, exclusive): infant, toddler, child, young adult ... elderly. */
const AGE_BANDS = [1, 5, 15, 30, 45, 60, 75, Infinity];

export function ageBand(age: number): number {
  return AGE_BANDS.findIndex((upper) => age < upper);
}

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
    ageCounts: Array.from({ length: diseaseCount }, () => AGE_BANDS.map(() => 0)),
    sexCounts: Array.from({ length: diseaseCount }, () => [0, 0]),
  };
}

export function countDemographics(c: DemographicCounts, diseaseIndex: number, d: Demographics): void {
  if (d.age !== null && d.age >= 0) c.ageCounts[diseaseIndex]![ageBand(d.age)]! += 1;
  if (d.sex !== null) c.sexCounts[diseaseIndex]![d.sex === 'M' ? 0 : 1]! += 1;
}

/** Lidstone-smoothed categorical likelihoods from counts (alpha per cell). */
export function demographicModel(c: DemographicCounts, alpha = 1): DemographicModel {
  const logCat = (row: number[], k: number): number => {
    const n = row.reduce((s, v) => s + v, 0);
    return Math.log((row[k]! + alpha) / (n + alpha * row.length));
  };
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

/**
 * HPO disease annotations (phenotype.hpoa: OMIM, Orphanet and DECIPHER diseases → HPO terms, with
 * how often each is seen) read into per-disease finding rates. Used offline, by
 * scripts/derive-ddxplus-knowledge.ts, to derive the knowledge a DDXPlus build ships with
 * (src/sources/ddxplus/knowledge/): a file of 33 MB is not read at build or query time.
 */

/** One positive phenotype annotation with a known rate. */
export interface HpoAnnotation {
  disease: string;
  hpo: string;
  rate: number;
}

/**
 * HPO's frequency terms, as the middle of the band each names (HP:0040279 "Frequency"): Orphanet
 * gives bands, not counts. Excluded (0%) is a negative annotation and kept as 0.
 */
export const FREQUENCY_RATES: Readonly<Record<string, number>> = {
  'HP:0040280': 1, // Obligate, 100%
  'HP:0040281': 0.895, // Very frequent, 80-99%
  'HP:0040282': 0.545, // Frequent, 30-79%
  'HP:0040283': 0.17, // Occasional, 5-29%
  'HP:0040284': 0.025, // Very rare, 1-4%
  'HP:0040285': 0, // Excluded, 0%
};

/** A frequency cell as a rate: a frequency term, "n/m" or "x%"; null when empty or unreadable. */
export function frequencyRate(cell: string): number | null {
  const s = cell.trim();
  if (s in FREQUENCY_RATES) return FREQUENCY_RATES[s]!;
  const frac = /^(\d+)\/(\d+)$/.exec(s);
  if (frac) return Number(frac[2]) > 0 ? Math.min(1, Number(frac[1]) / Number(frac[2])) : null;
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(s);
  return pct ? Math.min(1, Number(pct[1]) / 100) : null;
}

/**
 * The phenotypic (aspect P), positive annotations of the wanted diseases that carry a rate. A
 * "NOT" annotation says the disease lacks the term; it is left out here, as is one whose frequency
 * is Excluded (0%, the same statement) and one without a frequency (its rate is unknown, and a
 * guess would be ours, not the curators'). Knowledge here only ever raises a finding's price.
 */
export function parseHpoAnnotations(text: string, wanted: ReadonlySet<string>): HpoAnnotation[] {
  const out: HpoAnnotation[] = [];
  // Column positions, read from the header line (the columns are named, not fixed).
  let at: Record<'disease' | 'qualifier' | 'hpo' | 'frequency' | 'aspect', number> | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const cells = line.split('\t');
    if (at === null) {
      const header = cells.map((c) => c.trim());
      at = { disease: header.indexOf('database_id'), qualifier: header.indexOf('qualifier'), hpo: header.indexOf('hpo_id'), frequency: header.indexOf('frequency'), aspect: header.indexOf('aspect') };
      continue;
    }
    const col = (i: number) => cells[i] ?? '';
    const disease = col(at.disease);
    if (!wanted.has(disease) || col(at.aspect) !== 'P' || col(at.qualifier).trim() !== '') continue;
    const rate = frequencyRate(col(at.frequency));
    if (rate !== null && rate > 0) out.push({ disease, hpo: col(at.hpo), rate });
  }
  return out;
}

/**
 * Each evidence's rate in one disease: the highest rate of the disease's annotations to a term the
 * evidence asks about or to a term below one (HPO's true-path rule: a disease annotated with
 * "Erythema nodosum" shows a skin lesion), except a term in or below one the evidence excludes
 * (below "Edema" sit pleural effusion and cerebral oedema, which no patient sees as swelling).
 * Evidences none of whose terms it reaches are absent (unknown, not 0).
 */
export function evidenceRates(
  annotations: readonly HpoAnnotation[],
  evidenceTerms: Readonly<Record<string, readonly string[]>>,
  ancestorsOf: (hpo: string) => ReadonlySet<string>,
  options: { exclude?: Readonly<Record<string, readonly string[]>> } = {},
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [code, terms] of Object.entries(evidenceTerms)) {
    const excluded = options.exclude?.[code] ?? [];
    for (const a of annotations) {
      const up = ancestorsOf(a.hpo);
      const within = (t: string) => t === a.hpo || up.has(t);
      if (terms.some(within) && !excluded.some(within)) out[code] = Math.max(out[code] ?? 0, a.rate);
    }
  }
  return out;
}

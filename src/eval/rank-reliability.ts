/**
 * Where the true diagnosis ranked, against what the differential gave that rank (issue 26): for
 * the rank groups 1, 2, 3, 4-5, 6-10 of the listed differential and the unlisted rest, the share
 * of cases whose truth sat there beside the probability the differential put there (its expected
 * share; Σ_r p_r over the group's ranks, averaged over cases). A calibrated differential shows the
 * two equal in every group. It also bounds "truth under 1%" from below: a rank whose probability
 * is honestly under 1% must show its truths under 1%, so when the truth sits at rank 6 or below
 * in more than 2% of cases, no calibration gives it 1% there without overstating those ranks for
 * every other case: the figure is then one of recall, not of calibration.
 */

/** One case's listed probabilities (best first), the truth's 1-based rank among them (null: unlisted) and the diseases left unlisted. */
export interface RankedCase {
  listed: readonly number[];
  truthRank: number | null;
  unlistedCount: number;
}

export interface RankGroup {
  /** "1", "4-5", "unlisted". */
  ranks: string;
  /** Share of cases whose truth sat in the group. */
  truth_share: number;
  /** Mean total probability the differential gave the group's ranks. */
  expected_share: number;
  /** Mean probability per disease of the group (expected share over its ranks). */
  mean_p: number;
}

const GROUPS: readonly [number, number][] = [[1, 1], [2, 2], [3, 3], [4, 5], [6, 10]];

export function rankReliability(cases: readonly RankedCase[]): RankGroup[] {
  if (cases.length === 0) return [];
  const n = cases.length;
  const out: RankGroup[] = GROUPS.map(([lo, hi]) => {
    let truths = 0, mass = 0, slots = 0;
    for (const c of cases) {
      if (c.truthRank !== null && c.truthRank >= lo && c.truthRank <= hi) truths++;
      for (let r = lo; r <= Math.min(hi, c.listed.length); r++, slots++) mass += c.listed[r - 1]!;
    }
    return { ranks: lo === hi ? String(lo) : `${lo}-${hi}`, truth_share: truths / n, expected_share: mass / n, mean_p: slots ? mass / slots : 0 };
  });
  // Ranks listed past the last group (a longer list) count with the unlisted rest.
  let truths = 0, mass = 0, slots = 0;
  const last = GROUPS[GROUPS.length - 1]![1];
  for (const c of cases) {
    if (c.truthRank === null || c.truthRank > last) truths++;
    const tail = c.listed.slice(last);
    const rest = Math.max(0, 1 - c.listed.reduce((a, p) => a + p, 0));
    mass += tail.reduce((a, p) => a + p, 0) + rest;
    slots += tail.length + c.unlistedCount;
  }
  out.push({ ranks: 'unlisted', truth_share: truths / n, expected_share: mass / n, mean_p: slots ? mass / slots : 0 });
  return out;
}

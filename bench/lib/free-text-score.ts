/**
 * Scoring of the free-text bench (issue 17, "Measure"): top-1/3/5 overall, by style and by
 * tag, from each case's rank of the gold diagnosis; and the assertion check, which negated
 * findings of a vignette came out as present matches. Pure functions over plain data, so
 * both systems (dxgraph and the TF-IDF baseline) are scored by the same code.
 */
export interface TopK {
  n: number;
  top1: number;
  top3: number;
  top5: number;
}

export interface Breakdown {
  overall: TopK;
  byStyle: Record<string, TopK>;
  byTag: Record<string, TopK>;
}

/** A case as scoring sees it: its groups and the 1-based rank of the gold answer (null = not ranked at all). */
export interface RankedCase {
  style: string;
  tags: readonly string[];
  rank: number | null;
}

/** 1-based position of `gold` in `ranked`, or null when it is not there. */
export function rankOf<T>(ranked: readonly T[], gold: T | null | undefined): number | null {
  if (gold === null || gold === undefined) return null;
  const i = ranked.indexOf(gold);
  return i < 0 ? null : i + 1;
}

export function topK(ranks: readonly (number | null)[]): TopK {
  const n = ranks.length;
  const share = (k: number) => (n === 0 ? 0 : ranks.filter((r) => r !== null && r <= k).length / n);
  return { n, top1: share(1), top3: share(3), top5: share(5) };
}

export function breakdown(cases: readonly RankedCase[]): Breakdown {
  const group = (key: (c: RankedCase) => readonly string[]) => {
    const m = new Map<string, (number | null)[]>();
    for (const c of cases) for (const g of key(c)) m.set(g, [...(m.get(g) ?? []), c.rank]);
    return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([g, r]) => [g, topK(r)]));
  };
  return { overall: topK(cases.map((c) => c.rank)), byStyle: group((c) => [c.style]), byTag: group((c) => c.tags) };
}

export interface MatchLike {
  featureId: string;
  polarity: 'present' | 'absent';
}

/**
 * The vignette's negated evidence codes that a match carries with the given polarity:
 * 'present' = a negation read as a positive finding (the failure the issue counts),
 * 'absent' = a negation caught. `codeOf` maps a feature id to its source code (E_91), or null.
 */
export function negatedCodes(matches: readonly MatchLike[], codeOf: (featureId: string) => string | null, absentEvidences: readonly string[], polarity: 'present' | 'absent'): string[] {
  const negated = new Set(absentEvidences);
  const hit = new Set<string>();
  for (const m of matches) {
    if (m.polarity !== polarity) continue;
    const code = codeOf(m.featureId);
    if (code !== null && negated.has(code)) hit.add(code);
  }
  return [...hit].sort();
}

/**
 * The result's `insufficient` flag (issue 17: "the input carried too little to rank"), read
 * defensively: `null` or `false` = not set; `true`, or an explanation object (`{reason,
 * message}`, or one with a boolean `insufficient` / `value` inside) = set; null when the
 * result has no such field at all.
 */
export function insufficientFlag(result: object): boolean | null {
  if (!('insufficient' in result)) return null;
  const v = (result as { insufficient?: unknown }).insufficient;
  if (v === null || v === undefined) return false;
  if (typeof v === 'object') {
    const inner = (v as { insufficient?: unknown }).insufficient ?? (v as { value?: unknown }).value;
    return typeof inner === 'boolean' ? inner : true; // an explanation object: its presence is the flag
  }
  return Boolean(v);
}

/** The flag's `reason` when it is an object carrying a string one ("no-finding-matched"), else null. */
export function insufficientReason(result: object): string | null {
  const v = (result as { insufficient?: unknown }).insufficient;
  const reason = typeof v === 'object' && v !== null ? (v as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' ? reason : null;
}

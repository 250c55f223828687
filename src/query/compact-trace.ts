import type { DiagnoseResult, FeatureMatch, TraceOmitted } from './contracts.js';

/**
 * The summary trace, the HTTP default (issue 18). The full trace returned every match of
 * every finding and every retrieved record's whole text, so a 19.6 KB request could come
 * back as 25.8 MB. The summary keeps what a clinician needs to see why (every finding, its
 * best match, the top votes, the head of the differences KG, the first records with clipped
 * text) and says how much each list left out in `trace.omitted`; nothing is dropped
 * silently. `options.trace: "full"` returns everything (still bounded by the option limits).
 */
export const SUMMARY_CAPS = {
  /** Matches kept per finding (its best ones). */
  matchesPerFinding: 1,
  votes: 10,
  differencesKg: 60,
  retrieved: 10,
  gateSentences: 60,
  /** Characters kept of a retrieved record's text and of a gate sentence. */
  textChars: 300,
} as const;

export function compactTrace(result: DiagnoseResult, caps = SUMMARY_CAPS): DiagnoseResult {
  const t = result.trace;
  let clippedTexts = 0;
  const clip = (s: string): string => {
    if (s.length <= caps.textChars) return s;
    clippedTexts++;
    return `${s.slice(0, caps.textChars)}…`;
  };
  const matches = bestPerFinding(t.matches, caps.matchesPerFinding);
  const retrieved = t.retrieved.slice(0, caps.retrieved).map((r) => ({ ...r, text: clip(r.text), summary: r.summary === null ? null : clip(r.summary) }));
  const gate = t.gate ? { ...t.gate, sentences: t.gate.sentences.slice(0, caps.gateSentences).map((s) => ({ ...s, text: clip(s.text) })) } : null;
  const omitted: TraceOmitted = {
    matches: t.matches.length - matches.length,
    votes: Math.max(0, t.votes.length - caps.votes),
    differencesKg: Math.max(0, t.differencesKg.length - caps.differencesKg),
    retrieved: Math.max(0, t.retrieved.length - caps.retrieved),
    gateSentences: Math.max(0, (t.gate?.sentences.length ?? 0) - caps.gateSentences),
    clippedTexts,
  };
  return {
    ...result,
    trace: { ...t, gate, matches, votes: t.votes.slice(0, caps.votes), differencesKg: t.differencesKg.slice(0, caps.differencesKg), retrieved, omitted },
  };
}

/** The `perFinding` most similar matches of each finding, in the original order. */
function bestPerFinding(matches: readonly FeatureMatch[], perFinding: number): FeatureMatch[] {
  const byFinding = new Map<number, FeatureMatch[]>();
  for (const m of matches) {
    const list = byFinding.get(m.findingIndex) ?? [];
    list.push(m);
    byFinding.set(m.findingIndex, list);
  }
  const keep = new Set<FeatureMatch>();
  for (const list of byFinding.values()) for (const m of [...list].sort((a, b) => b.similarity - a.similarity).slice(0, perFinding)) keep.add(m);
  return matches.filter((m) => keep.has(m));
}

/**
 * The offline diagnoser behind the build's masking annotation (FIND §3.2.2) when no LLM is
 * configured: exactly the query side's `direct` path — decompose, match each finding to
 * feature nodes, naive-Bayes evidence scoring (src/reasoners/scoring-naive-bayes.ts) with no
 * votes, no retrieval, no differences KG — run on the build's in-memory KG snapshot and an
 * in-memory feature index. It never touches Neo4j: a masked variant is only a re-scoring of
 * cached per-sentence matches, so the n+1 calls per record cost microseconds each.
 * The ranking is the evidence reasoner's (rankDiseases) with an empty retrieval context —
 * its priors are then all zero — minus the evidence lines nobody reads here.
 */
import type { VectorIndexLike } from '../src/adapters/faiss/types.js';
import type { Diagnoser } from '../src/gate/masking-annotation.js';
import { DEFAULT_OPTIONS, type FeatureMatch, type InputFinding } from '../src/query/contracts.js';
import { decompose } from '../src/clinical-text/decompose.js';
import type { TextEmbedder } from '../src/query/embed.js';
import type { KgSnapshot } from '../src/query/kg-snapshot.js';
import { matchFeatures } from '../src/query/match-features.js';
import { DEFAULT_EVIDENCE_OPTIONS } from '../src/reasoners/evidence-reasoner.js';
import { reportedFeatures } from '../src/reasoners/evidence-reported.js';
import { effectiveUnreportedWeight, nbTables } from '../src/reasoners/scoring-naive-bayes.js';
import { nbScoresAll } from '../src/reasoners/scoring-sparse.js';

export interface OfflineDiagnoserServices {
  snapshot: KgSnapshot;
  embedder: TextEmbedder;
  featureIndex: VectorIndexLike;
}

interface SentenceEvidence {
  findings: InputFinding[];
  matches: FeatureMatch[];
}

export interface OfflineDiagnoser extends Diagnoser {
  /** Matches many sentences in one batched embed + search (optional warm-up; diagnose() fills gaps). */
  prepare(sentences: readonly string[]): Promise<void>;
}

export function createOfflineDiagnoser(services: OfflineDiagnoserServices, options: { topM?: number; matchThreshold?: number } = {}): OfflineDiagnoser {
  const topM = options.topM ?? DEFAULT_OPTIONS.topM;
  const threshold = options.matchThreshold ?? DEFAULT_OPTIONS.matchThreshold;
  const cache = new Map<string, SentenceEvidence>();
  const ev = DEFAULT_EVIDENCE_OPTIONS;
  const s = services.snapshot;

  const prepare = async (sentences: readonly string[]) => {
    const todo = [...new Set(sentences)].filter((s) => !cache.has(s));
    if (todo.length === 0) return;
    const perSentence = todo.map((text) => decompose({ text, findings: [] }).findings);
    const all = perSentence.flat();
    const { matches } = await matchFeatures(services, { findings: all, topM, threshold });
    let offset = 0;
    const byFinding = new Map<number, FeatureMatch[]>();
    for (const m of matches) byFinding.set(m.findingIndex, [...(byFinding.get(m.findingIndex) ?? []), m]);
    todo.forEach((text, i) => {
      const findings = perSentence[i]!;
      const own = findings.flatMap((_, j) => (byFinding.get(offset + j) ?? []).map((m) => ({ ...m, findingIndex: j })));
      cache.set(text, { findings, matches: own });
      offset += findings.length;
    });
  };

  return {
    prepare,
    async diagnose(sentences) {
      if (sentences.length === 0) return [];
      await prepare(sentences);
      const findings: InputFinding[] = [];
      const matches: FeatureMatch[] = [];
      for (const s of sentences) {
        const ev = cache.get(s)!;
        for (const m of ev.matches) matches.push({ ...m, findingIndex: m.findingIndex + findings.length });
        findings.push(...ev.findings);
      }
      if (matches.length === 0) return [];
      const reported = reportedFeatures(s, matches, { margin: ev.matchMargin, threshold });
      const tables = nbTables(s, { alpha: ev.alpha, notesAlpha: ev.notesAlpha, notesUnreportedWeight: ev.notesUnreportedWeight });
      const lambda = effectiveUnreportedWeight(tables, reported.reduce((a, r) => a + r.weight, 0), ev.unreportedWeight);
      // Every disease's score at the cost of the diseases the findings touch (the same scores, scoring-sparse.ts).
      const scores = nbScoresAll(s, tables, reported, { unreportedWeight: lambda });
      return s.diseases.map((d, i) => ({ id: d.id, score: scores[i]! })).sort((a, b) => b.score - a.score).map((d) => d.id);
    },
  };
}

/**
 * The gate's `direct` decision (FIND §3.2.1: the input is dense enough to answer without
 * retrieval): no subcategory vote, no differences-KG query, no record retrieval, no knowledge
 * filter. The chosen reasoner answers from the matched features alone — the LLM when
 * configured, else the evidence reasoner's naive-Bayes scoring, which needs no graph
 * traversal. Follow-ups are ranked among the answer's leading diseases (there is no vote to
 * take candidates from).
 */
import type { PosteriorCalibration } from '../calibration/temperature.js';
import type { Reasoner, ReasonerOutput } from '../reasoners/reasoner.js';
import type { DiagnoseInput, FeatureMatch, FollowUpQuestion, InputFinding } from './contracts.js';
import type { FollowUpRanker } from './followups-sigma.js';
import type { KgSnapshot } from './kg-snapshot.js';

export interface DirectAnswerDeps {
  snapshot: KgSnapshot;
  reasoner: Reasoner;
  followUpRanker: FollowUpRanker;
  calibration?: PosteriorCalibration | null;
}

export type Timed = <T>(stage: string, fn: () => T | Promise<T>) => Promise<T>;

/** Leading diseases of the direct answer whose features follow-ups may ask about. */
export const DIRECT_FOLLOWUP_CANDIDATES = 5;

export async function answerDirect(
  deps: DirectAnswerDeps,
  input: { input: DiagnoseInput; findings: InputFinding[]; matches: FeatureMatch[]; followUps: number; signal: AbortSignal | null },
  timed: Timed,
): Promise<ReasonerOutput & { followUps: FollowUpQuestion[] }> {
  const s = deps.snapshot;
  const out = await timed('reason', () =>
    deps.reasoner.reason({
      input: input.input, findings: input.findings, matches: input.matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: s, signal: input.signal, calibration: deps.calibration ?? null,
    }),
  );
  const followUps =
    out.followUps ??
    (await timed('followUps', () => {
      if (input.followUps <= 0) return [];
      const candidateDiseases = out.differential.slice(0, DIRECT_FOLLOWUP_CANDIDATES).flatMap((d) => {
        const i = s.diseaseIndex.get(d.diseaseId);
        return i === undefined ? [] : [i];
      });
      return deps.followUpRanker.rank({ snapshot: s, candidateDiseases, reportedFeatureIds: new Set(input.matches.map((m) => m.featureId)), limit: input.followUps });
    }));
  return { ...out, followUps };
}

import type { LlmBudget } from '../adapters/llm/budget.js';
import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { PosteriorCalibration } from '../calibration/temperature.js';
import type {
  DiagnoseInput,
  ProbabilityInfo,
  FeatureMatch,
  FollowUpQuestion,
  InputFinding,
  RankedDisease,
  RetrievedRecord,
  SubcategoryVote,
  Triple,
} from '../query/contracts.js';

/**
 * What every reasoner sees: the patient input and the whole retrieval trace
 * (MedRAG eq. 17: q, d_r, K), plus the in-memory KG for statistics.
 */
export interface ReasonerContext {
  input: DiagnoseInput;
  findings: InputFinding[];
  matches: FeatureMatch[];
  votes: SubcategoryVote[];
  /** Top subcategories after voting, best first (the chosen one is `candidates[0]`). */
  candidates: SubcategoryVote[];
  differencesKg: Triple[];
  retrieved: RetrievedRecord[];
  /** Cosine of a written description with each disease's profile (snapshot order; src/query/disease-profiles.ts); absent/null: none (coded input, or a build without notes). */
  profiles?: Float64Array | null;
  /** Follow-ups already ranked by the discriminability ranker (an LLM may rephrase or replace them). */
  followUps: FollowUpQuestion[];
  snapshot: KgSnapshot;
  /** Aborts when the caller gives up (HTTP client gone, timeout). */
  signal: AbortSignal | null;
  /** The build's posterior calibration (src/calibration); absent/null: uncalibrated scores. */
  calibration?: PosteriorCalibration | null;
  /** The request's LLM budget (time and calls shared with the knowledge filter); absent = none. */
  llmBudget?: LlmBudget | null;
}

export interface ReasonerOutput {
  differential: RankedDisease[];
  /** null: keep the ranker's follow-ups. */
  followUps: FollowUpQuestion[] | null;
  report: { narrative: string; treatments: string[]; medications: string[] } | null;
  /** True when this reasoner fell back to another one's answer. */
  degraded: boolean;
  /** What the differential's scores are; absent: not stated. */
  probability?: ProbabilityInfo | null;
  /** The LLM that wrote this answer (absent: no model, e.g. the evidence reasoner or a fallback). */
  model?: string;
}

export interface Reasoner {
  /** "evidence", "llm", ...: reported as DiagnoseResult.reasoner. */
  readonly name: string;
  reason(ctx: ReasonerContext): Promise<ReasonerOutput>;
}

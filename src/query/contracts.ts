/**
 * The query side's public contract: what `diagnose()` takes and returns. The HTTP
 * layer, the CLI (`dxgraph ask`), sessions and the evaluation harness all speak it,
 * so the trace a client sees is exactly what the pipeline computed (DESIGN.md §3).
 */
import type { Polarity } from '../domain/record.js';

/** Findings and their matches are the clinical-text module's (build and query read text alike). */
export type { FeatureMatch, InputFinding } from '../clinical-text/findings.js';
import type { FeatureMatch, InputFinding } from '../clinical-text/findings.js';

/** Follow-up rankers selectable per request (issue 6). */
export const FOLLOW_UP_RANKERS = ['information-gain', 'sigma'] as const;
export type FollowUpRankerName = (typeof FOLLOW_UP_RANKERS)[number];

export interface DiagnoseOptions {
  /** Feature matches kept per finding (MedRAG top-m, eq. 9-11). */
  topM: number;
  /** Minimum cosine similarity for a feature match (t_matching). */
  matchThreshold: number;
  /** Similar records retrieved (top-k). */
  topK: number;
  /** Subcategories kept as candidates after voting. */
  candidateSubcategories: number;
  /** Follow-up questions returned. */
  followUps: number;
  /** Information-density gate (docs/gate.md): 'auto' (default) defers to config (DXGRAPH_GATE). */
  gate?: 'auto' | 'on' | 'off';
  /** Per-request gate thresholds over the configured / calibrated ones (0 ≤ theta2 ≤ theta1 ≤ 1). */
  gateThresholds?: { theta1?: number; theta2?: number };
  /** 'record' (default): whole-record retrieval; 'find': FIND chunk retrieval from A/B sentences. */
  retrieval?: 'record' | 'find';
  /** HTTP response trace: 'summary' (default; capped lists, src/query/compact-trace.ts) or 'full'. The pipeline always computes the full one. */
  trace?: 'summary' | 'full';
  reasoner: 'auto' | 'evidence' | 'llm';
  /**
   * Which decomposition reads the text: 'auto' (default: the LLM decomposer when one is configured)
   * or 'rules'. Not a request field: `/v1/diagnose` sets 'rules' for the evidence answer it sends
   * before an LLM report, so that answer never waits on the LLM and the text is decomposed by the
   * LLM once, in the report (routes/diagnose.ts).
   */
  decomposition?: 'auto' | 'rules';
  /**
   * Which ranker picks the follow-ups: expected entropy reduction of the differential
   * (default: measured better, docs/followups.md) or MedRAG's sigma (eq. 15-16).
   * Absent = the default.
   */
  followUpRanker?: FollowUpRankerName;
}

export interface DiagnoseInput {
  text: string | null;
  findings: InputFinding[];
  age: number | null;
  sex: 'M' | 'F' | null;
  options: DiagnoseOptions;
}


export interface SubcategoryVote {
  subcategoryId: string;
  name: string;
  votes: number;
}

export interface Triple {
  subject: string;
  relation: string;
  object: string;
  /** Graph ids behind subject / object (disease id; feature id), so reasoners need no name lookups. */
  subjectId: string | null;
  objectId: string | null;
  /** Prevalence on HAS_MANIFESTATION edges / key differences, when known. */
  weight: number | null;
}

export interface RetrievedRecord {
  id: string;
  similarity: number;
  diagnosis: string;
  diseaseId: string | null;
  /** The record's own text as the source rendered it (what the record index embeds). */
  text: string;
  /** What a clinician reads: the record's findings by their clinical labels (presentation/record-summary.ts); null for builds before it. */
  summary: string | null;
}

export interface FollowUpQuestion {
  id: string;
  featureId: string;
  text: string;
  /** Ranker score (sigma = (n-1)/deg for MedRAG eq. 15-16, or information gain). */
  score: number;
  ranker: string;
}

export interface RankedDisease {
  diseaseId: string;
  disease: string;
  subcategory: string;
  category: string;
  /**
   * The probability of this disease over every disease of the KG (`DiagnoseResult.probability`
   * says which kind: the evidence reasoner's calibrated posterior, or an LLM's own confidence).
   * The listed diseases may sum to less than 1: the rest (`probability.unlisted`) is spread over
   * diseases not listed.
   */
  score: number;
  /** Short, patient-text-free evidence lines ("lower chest pain: P=0.82 in disease"). */
  evidence: string[];
}

/** What the differential's `score` is (docs/http-api.md#what-the-score-is). */
export interface ProbabilityInfo {
  /**
   * 'evidence-posterior': the evidence reasoner's P(disease | input) over every disease of the
   * KG; 'llm-confidence': the LLM reasoner's own stated confidence, normalised, never calibrated
   * and never blended with the posterior.
   */
  source: 'evidence-posterior' | 'llm-confidence';
  /** True when the build's calibration (fitted on held-out cases) rescaled the posterior. */
  calibrated: boolean;
  /** Which calibration applies: 'text' when the input has free text, else 'coded'. */
  inputKind: 'coded' | 'text';
  /** How complete the description is (reported findings / a typical record's), 0..1; null for the LLM. */
  completeness: number | null;
  /** The temperature T applied (p ∝ exp(score / T)); 1 = none; null for the LLM. */
  temperature: number | null;
  /** Tail scale s of the calibration's log-compressed score (src/calibration/temperature.ts); null: plain temperature scaling or none. */
  tailScale: number | null;
  /** The broad reading mixed in by the calibration (weight w, inverse temperature β_w); null: none. */
  mix: { weight: number; beta: number } | null;
  /** The first disease's probability was mapped by the calibration's isotonic top-label fit, the rest rescaled (src/calibration/top-label.ts). */
  topLabel: boolean;
  /** Probability left to the diseases not listed. */
  unlisted: number;
  /**
   * The raw posterior of each listed disease (same order), before calibration; null for the LLM.
   * For comparison and for consultations, which update the raw reading; not a probability to show.
   */
  uncalibrated: number[] | null;
}

export interface DiagnoseResult {
  differential: RankedDisease[];
  followUps: FollowUpQuestion[];
  /** LLM narrative (report, treatments, medication guidance) when an LLM reasoner answered. */
  report: { narrative: string; treatments: string[]; medications: string[] } | null;
  /** True when the LLM path failed or timed out and the evidence reasoner answered instead. */
  degraded: boolean;
  reasoner: string;
  /** What the scores mean (calibrated posterior or LLM confidence); null when no reasoner said. */
  probability: ProbabilityInfo | null;
  /** The LLM that wrote the answer ("SmolLM2-135M-Instruct.Q8_0 (local)", "gpt-4o-mini"); null when no model did (evidence reasoner, fallback). */
  model: string | null;
  /** Set when the input carried too little to rank (no or too few findings matched the KG): the list is mostly prior. */
  insufficient: { reason: 'no-finding-matched' | 'too-few-findings-matched'; message: string } | null;
  trace: {
    gate: { score: number; decision: 'direct' | 'retrieve' | 'retrieve-warn'; sentences: { text: string; label: 'A' | 'B' | 'C' }[]; warning: string | null } | null;
    /** Which decomposition answered (rules / LLM), why the LLM did not, and age/sex read from the text. */
    decomposition: { method: 'rules' | 'llm'; fallback: string | null; age: number | null; sex: 'M' | 'F' | null; note?: NoteReadTrace };
    findings: InputFinding[];
    matches: FeatureMatch[];
    votes: SubcategoryVote[];
    chosenSubcategory: SubcategoryVote | null;
    differencesKg: Triple[];
    retrieved: RetrievedRecord[];
    /** How similar records were found on the full path ("none": turned off by DXGRAPH_RECORD_RETRIEVAL, the KG's own reasoning); absent when the gate answered directly. */
    retrieval?: RetrievalTrace;
    timingsMs: Record<string, number>;
    /** Set on a summary trace (HTTP default): what the caps left out, per list. Absent on a full trace. */
    omitted?: TraceOmitted;
  };
}

/**
 * How much of a written note was read (issue 47); set when the text was a note with headings or
 * gave more findings than DXGRAPH_MAX_FINDINGS. Kinds and counts only, never the text.
 */
export interface NoteReadTrace {
  /** Section kinds in text order when the text was a note with headings ("hpi", "ros", "exam"), else empty. */
  sections: string[];
  /** Sections left out as the clinician's own conclusion (assessment, plan, diagnoses, hospital course). */
  sectionsLeftOut: { kind: string; chars: number }[];
  /** Findings read. */
  findingsRead: number;
  /** Findings left out over DXGRAPH_MAX_FINDINGS (presentation kept first), in all and per section kind ("text": outside any section). */
  findingsLeftOut: number;
  findingsLeftOutBySection: Record<string, number>;
}

export interface RetrievalTrace {
  mode: 'dense' | 'lexical' | 'hybrid' | 'find' | 'none';
  /** What was left out, when anything was. */
  note: string | null;
}

/** Items left out of each trace list by the summary (0 = none), and record texts clipped. */
export interface TraceOmitted {
  matches: number;
  votes: number;
  differencesKg: number;
  retrieved: number;
  gateSentences: number;
  clippedTexts: number;
}

export const DEFAULT_OPTIONS: DiagnoseOptions = {
  topM: 3,
  matchThreshold: 0.55,
  topK: 10,
  candidateSubcategories: 3,
  followUps: 5,
  reasoner: 'auto',
  followUpRanker: 'information-gain',
};

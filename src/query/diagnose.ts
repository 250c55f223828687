import { performance } from 'node:perf_hooks';
import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { VectorIndexLike } from '../adapters/faiss/types.js';
import { DEFAULT_LLM_BUDGET, LlmBudget, type LlmBudgetLimits } from '../adapters/llm/budget.js';
import { InputError } from '../errors.js';
import type { Reasoner } from '../reasoners/reasoner.js';
import { labelMatches } from './label-matches.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseResult, type FollowUpRankerName, type RetrievalTrace, type SubcategoryVote, type Triple } from './contracts.js';
import { decomposeRequest } from './decompose-request.js';
import { capFindings, noteReadTrace, tooManyClauses } from './cap-findings.js';
import type { LlmDecomposer } from './decompose-llm.js';
import type { PhraseEmbedder } from '../clinical-text/concepts/embed-forms.js';
import type { TextEmbedder } from './embed.js';
import type { FollowUpRanker } from './followups-sigma.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { matchFeatures } from './match-features.js';
import { differencesKg } from './differences-kg.js';
import type { DifferencesKgReader } from './differences-kg-cache.js';
import { resolveRecordRetrieval, type LexicalRecords, type RecordRetrieval, type RecordRow } from './retrieve-records.js';
import type { DiseaseProfiles } from './disease-profiles.js';
import { assessGate, followUpLimit, type QueryGate } from './apply-gate.js';
import { answerDirect } from './direct-answer.js';
import { filterRetrieved, type KnowledgeFilterDeps } from './filter-retrieved.js';
import { retrieveForQuery, type FindRetrievalDeps } from './retrieve-find.js';
import { voteSubcategory } from './vote-subcategory.js';
import { assessEvidence } from './assess-evidence.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import type { PosteriorCalibration } from '../calibration/temperature.js';

/**
 * The diagnose use case: decompose → gate → match → vote → differences KG ∥ record retrieval →
 * knowledge filter → follow-ups → reasoner, with each stage timed (performance.now) into the
 * trace. The gate's `direct` decision skips from match straight to the reasoner.
 */
export interface DiagnoseDeps {
  graph: Pick<GraphStore, 'read'>;
  snapshot: KgSnapshot;
  embedder: TextEmbedder;
  featureIndex: VectorIndexLike;
  recordIndex: VectorIndexLike;
  records: ReadonlyMap<string, RecordRow>;
  /** The records' lexical index and how similar records are found (retrieve-records.ts). */
  lexical?: LexicalRecords | null;
  recordRetrieval?: RecordRetrieval;
  /** Each disease's notes as one TF-IDF profile (disease-profiles.ts): built when the records were read from notes; absent/null: none. */
  profiles?: DiseaseProfiles | null;
  /** Available reasoners; one named "evidence" is required, one named "llm" is optional. */
  reasoners: Reasoner[];
  /** The ranker when `followUpRankers` is not given (a single hand-wired ranker). */
  followUpRanker: FollowUpRanker;
  /** Rankers selectable per request by `options.followUpRanker`. */
  followUpRankers?: Partial<Record<FollowUpRankerName, FollowUpRanker>>;
  /** Reads the differences KG (the query service's per-snapshot cache); absent: straight from `graph`. */
  differences?: DifferencesKgReader;
  /** Manifestation triples per disease in the differences KG. */
  differencesPerDisease: number;
  /** Per-request bounds (issue 18); absent: DEFAULT_QUERY_LIMITS. */
  limits?: QueryLimits;
  /** Information-density gate (absent: off), FIND chunk retrieval, LLM knowledge filter (docs/gate.md). */
  gate?: QueryGate | null;
  find?: FindRetrievalDeps | null;
  knowledgeFilter?: KnowledgeFilterDeps | null;
  /** LLM decomposition constrained to the KG's concepts (decompose-llm.ts); absent/null: the rule path. */
  decomposer?: LlmDecomposer | null;
  /** The concept layer's embedding fallback (WordLlama when installed, else hashed n-grams); absent/null: none. */
  phraseEmbedder?: PhraseEmbedder | null;
  /** Reviewed clinical surface forms for the concept layer (src/clinical-text/concepts); absent: forms from feature labels. */
  lexicon?: ConceptLexicon | null;
  /** The build's posterior calibration (src/calibration), handed to the reasoner; absent/null: uncalibrated. */
  calibration?: PosteriorCalibration | null;
}

/** Work one request may cause: findings after decomposition, and one LLM budget shared by filter and reasoner. */
export interface QueryLimits {
  maxFindings: number;
  llmBudget: LlmBudgetLimits;
}
export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxFindings: 200, llmBudget: DEFAULT_LLM_BUDGET };
/** Clause breaks (punctuation runs, and/or/but/with/without) allowed per finding of the bound. */
export const CLAUSES_PER_FINDING = 5;
const CLAUSE_BREAK = /[,;.:\n!?]+|\b(?:and|or|but|with|without)\b/gi;
export const clauseBreaks = (text: string): number => text.match(CLAUSE_BREAK)?.length ?? 0;

/**
 * Subcategories whose votes come within this share of the winner's share the choice (eq. 12-13:
 * ties share). Only the chosen subcategories' diseases get key-difference evidence, so with one
 * winner picked from a (near) tie the other side loses for the tie-break's sake: on DDXPlus with
 * the ICD-10 hierarchy, chronic vs acute rhinosinusitis (J32 / J01, other blocks) tie at 6.5
 * votes each from coded findings, and at 7-8 vs 9-10 from free text (the acute block has more
 * diseases to catch fuzzy matches); 2-3 chronic patients went to the acute side. 0.75 covers
 * both; the statistical hierarchy's figures do not move (docs/kg-build.md).
 */
export const DIFFERENCES_NEAR_TIE = 0.75;

/** The winner and the candidates within DIFFERENCES_NEAR_TIE of its votes, best first. */
export function nearTies(vote: { winner: SubcategoryVote | null; candidates: readonly SubcategoryVote[] }): SubcategoryVote[] {
  const w = vote.winner;
  return w ? [w, ...vote.candidates.filter((c) => c.subcategoryId !== w.subcategoryId && c.votes >= w.votes * DIFFERENCES_NEAR_TIE)] : [];
}

export function selectReasoner(reasoners: Reasoner[], wanted: DiagnoseInput['options']['reasoner']): Reasoner {
  const byName = new Map(reasoners.map((r) => [r.name, r] as const));
  const llm = byName.get('llm');
  if (wanted === 'llm' && !llm) throw new InputError('options.reasoner: "llm" requested but no LLM is configured', { field: 'options.reasoner' });
  const chosen = wanted === 'evidence' ? byName.get('evidence') : (llm ?? byName.get('evidence'));
  if (!chosen) throw new InputError(`options.reasoner: no "${wanted}" reasoner available`, { field: 'options.reasoner' });
  return chosen;
}

/** The follow-up ranker a request asked for; a 400 naming the option when it is not wired. */
export function selectFollowUpRanker(deps: Pick<DiagnoseDeps, 'followUpRanker' | 'followUpRankers'>, wanted: FollowUpRankerName | undefined): FollowUpRanker {
  if (!deps.followUpRankers) return deps.followUpRanker;
  const name = wanted ?? DEFAULT_OPTIONS.followUpRanker!;
  const ranker = deps.followUpRankers[name];
  if (!ranker) throw new InputError(`options.followUpRanker: no "${name}" ranker available`, { field: 'options.followUpRanker' });
  return ranker;
}

export async function diagnose(deps: DiagnoseDeps, requestInput: DiagnoseInput, opts: { signal?: AbortSignal } = {}): Promise<DiagnoseResult> {
  const timings: Record<string, number> = {};
  const timed = async <T>(stage: string, fn: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[stage] = Math.round((performance.now() - t0) * 1000) / 1000;
    }
  };
  const t0 = performance.now();
  const o = requestInput.options;
  const reasoner = selectReasoner(deps.reasoners, o.reasoner);
  const followUpRanker = selectFollowUpRanker(deps, o.followUpRanker);

  const limits = deps.limits ?? DEFAULT_QUERY_LIMITS;
  // Decomposition's cost grows with the text's clauses (2,800 repeated clauses took 0.3 s of event loop): a cheap count bounds it first.
  if (requestInput.text && tooManyClauses(requestInput.text, clauseBreaks(requestInput.text), CLAUSES_PER_FINDING * limits.maxFindings)) throw new InputError(`text: more than ${CLAUSES_PER_FINDING * limits.maxFindings} clauses (${CLAUSES_PER_FINDING} per allowed finding, DXGRAPH_MAX_FINDINGS); send a shorter description`, { field: 'text' });
  const llmBudget = new LlmBudget(limits.llmBudget, { signal: opts.signal ?? null });
  const decomposed = await timed('decompose', () =>
    decomposeRequest({ snapshot: deps.snapshot, lexicon: deps.lexicon ?? null, decomposer: deps.decomposer ?? null }, requestInput, { budget: llmBudget, signal: opts.signal ?? null }),
  );
  const { input } = decomposed;
  // A note whose every section is the clinician's own conclusion (an operative report, a discharge summary of diagnoses and course) is
  // answered as insufficient, its trace saying what was left out; only a request that says nothing is refused.
  if (decomposed.findings.length === 0 && !decomposed.trace.note) throw new InputError('no findings: give a non-empty text or at least one finding', { field: 'text' });
  // Every later stage multiplies by the findings count (matches, trace): bound it before any of them.
  // A request's own findings over the bound are refused; a note's text is read presentation first (cap-findings.ts).
  if (input.findings.length > limits.maxFindings) throw new InputError(`findings: more than ${limits.maxFindings} findings (DXGRAPH_MAX_FINDINGS); send fewer`, { field: 'findings' });
  const { findings, read } = capFindings(decomposed.findings, input.findings.length, limits.maxFindings);
  const { note, ...decomposition } = decomposed.trace;
  const noteRead = noteReadTrace(note, read);
  if (noteRead) Object.assign(decomposition, { note: noteRead });
  const gate = await assessGate(deps.gate ?? null, { input, findings }, timed);
  const { matches } = await timed('match', () =>
    matchFeatures({ snapshot: deps.snapshot, embedder: deps.embedder, featureIndex: deps.featureIndex, lexicon: deps.lexicon ?? null, phraseEmbedder: deps.phraseEmbedder ?? null }, { findings, topM: o.topM, threshold: o.matchThreshold, text: input.text }),
  );
  const { insufficient } = assessEvidence(findings, matches);
  if (gate?.decision === 'direct') {
    // Dense input: no vote, differences KG, retrieval or filter (FIND §3.2.1).
    const direct = await answerDirect({ snapshot: deps.snapshot, reasoner, followUpRanker, calibration: deps.calibration ?? null }, { input, findings, matches, followUps: o.followUps, signal: llmBudget.signal }, timed);
    timings.total = Math.round((performance.now() - t0) * 1000) / 1000;
    const { differential, followUps, report, degraded } = direct;
    return { differential, followUps, report, degraded, reasoner: reasoner.name, probability: direct.probability ?? null, model: direct.model ?? null, insufficient, trace: { gate, decomposition, findings, matches: labelMatches(deps.snapshot, matches), votes: [], chosenSubcategory: null, differencesKg: [], retrieved: [], timingsMs: timings } };
  }
  const vote = await timed('vote', () => voteSubcategory(deps.snapshot, { matches, candidates: o.candidateSubcategories }));
  const queryText = input.text?.trim() || findings.map((f) => (f.polarity === 'absent' ? `no ${f.text}` : f.text)).join('\n');
  const fromText = Boolean(input.text?.trim());
  const retrieval = retrievalTrace(deps, o.retrieval ?? 'record', fromText);
  const [triples, retrieved] = await Promise.all([
    timed('differencesKg', async (): Promise<Triple[]> =>
      (await Promise.all(nearTies(vote).map((c) => readDifferences(deps)({ subcategoryId: c.subcategoryId, perDisease: deps.differencesPerDisease })))).flatMap((r) => r.triples),
    ),
    retrieval.mode === 'none' ? [] : timed('retrieve', () => retrieveForQuery({ ...deps, find: deps.find ?? null }, { text: queryText, topK: o.topK, mode: o.retrieval ?? 'record', gate, fromText })),
  ]);
  // A written description against each disease's notes; coded findings joined as text have no words of their own to compare.
  const profiles = deps.profiles && fromText && retrieval.mode !== 'none' ? await timed('profiles', () => deps.profiles!.similarities(input.text!)) : null;
  // The knowledge filter belongs to the FIND path: it runs when the gate assessed the input or FIND retrieval was asked for.
  const filter = gate !== null || o.retrieval === 'find' ? (deps.knowledgeFilter ?? null) : null;
  const filtered = filter ? await timed('filter', () => filterRetrieved(filter, { patient: queryText, records: retrieved, budget: llmBudget })) : { records: retrieved, degraded: false };
  const followUps = await timed('followUps', () => {
    if (o.followUps <= 0) return []; // sessions ask for none: skip the ranker's work
    const candidateDiseases = vote.candidates.flatMap((c) => [...(deps.snapshot.subcategoryDiseases[deps.snapshot.subcategoryIndex.get(c.subcategoryId) ?? -1] ?? [])]);
    return followUpRanker.rank({ snapshot: deps.snapshot, candidateDiseases, reportedFeatureIds: new Set(matches.map((m) => m.featureId)), limit: followUpLimit(gate, o.followUps) });
  });
  const out = await timed('reason', () =>
    reasoner.reason({
      input, findings, matches, votes: vote.votes, candidates: vote.candidates, differencesKg: triples, retrieved: filtered.records, profiles, followUps, snapshot: deps.snapshot, signal: opts.signal ?? null, llmBudget, calibration: deps.calibration ?? null,
    }),
  );
  timings.total = Math.round((performance.now() - t0) * 1000) / 1000;
  return {
    differential: out.differential,
    followUps: out.followUps ?? followUps,
    report: out.report,
    degraded: out.degraded || filtered.degraded,
    reasoner: reasoner.name,
    probability: out.probability ?? null,
    model: out.model ?? null,
    insufficient,
    trace: { gate, decomposition, findings, matches: labelMatches(deps.snapshot, matches), votes: vote.votes, chosenSubcategory: vote.winner, differencesKg: triples, retrieved: filtered.records, retrieval, timingsMs: timings },
  };
}

/** Turned off (DXGRAPH_RECORD_RETRIEVAL=none), it stays off whatever a request's options.retrieval asks: the KG's own reasoning. */
function retrievalTrace(deps: DiagnoseDeps, requested: 'record' | 'find', fromText: boolean): RetrievalTrace {
  const mode = resolveRecordRetrieval(deps, fromText);
  if (mode === 'none') return { mode, note: 'record retrieval is off (DXGRAPH_RECORD_RETRIEVAL=none): no similar records and no disease profiles; the ranking is the KG\'s own' };
  return { mode: requested === 'find' ? 'find' : mode, note: null };
}

function readDifferences(deps: DiagnoseDeps): DifferencesKgReader {
  return deps.differences ?? ((input) => differencesKg(deps.graph, input));
}

import type { RankedDisease } from '../query/contracts.js';
import { diseaseLineage, type KgSnapshot } from '../query/kg-snapshot.js';
import { sigma } from '../query/discriminability.js';
import type { Reasoner, ReasonerContext, ReasonerOutput } from './reasoner.js';
import { completeness, effectiveUnreportedWeight, nbScore, nbTables, type NbParams, type NbTables } from './scoring-naive-bayes.js';
import { nbScoresAll } from './scoring-sparse.js';
import { listedDiseases } from './listed-diseases.js';
import { reportedFeatures } from './evidence-reported.js';
import { withImpliedParents } from './implied-parents.js';
import { contextPriors, type PriorWeights } from './evidence-priors.js';
import { textView } from './text-view.js';
import { notesAloneParams } from './small-notes-corpus.js';
import { calibratedPosterior, inputKind, paramsAt, type InputKind } from '../calibration/temperature.js';
import type { ProbabilityInfo } from '../query/contracts.js';
import { shippedVoice } from '../presentation/shipped-voice.js';

/**
 * Offline evidence reasoner (no LLM): ranks every disease of the KG by the naive-Bayes
 * score of the matched features (scoring-naive-bayes.ts) plus soft priors from the
 * subcategory votes, key differences and the neighbours' diagnoses (evidence-priors.ts).
 * Every disease is scored, not only the winning subcategory's: the vote is a prior, so a
 * wrong vote cannot doom the answer.
 */
export interface EvidenceReasonerOptions extends NbParams, PriorWeights {
  /** The kNN prior scales with completeness^knnPower (as λ does; 0: a constant weight). */
  knnPower?: number;
  /** A finding's fuzzy matches within this similarity of its best one share its weight. */
  matchMargin: number;
  /** Diseases returned in the differential. */
  maxDifferential: number;
  /** ε of the background mixture at zero completeness; scaled by (1 − completeness). */
  noise: number;
  /** Score a finding's alternatives as one observation (their mean probability). */
  mixture: boolean;
  /** m of the text view (text-view.ts): how many notes a disease's coded rate counts as when free text is read against its notes. */
  notesCodedPrior: number;
  /** m of scoring-knowledge.ts: how many records a disease's known rate of a finding counts as, for free text (0: knowledge unused). */
  knowledgeRecords: number;
  /** Score every disease in full instead of once per p0 for those no reported feature touches (scoring-sparse.ts); same result, the test's reference. */
  exhaustive?: boolean;
  /** γ_notes of a KG learnt from a small corpus of notes alone (small-notes-corpus.ts; absent: notesUnreportedWeight). */
  smallNotesUnreportedWeight?: number;
  /** γ of the subcategory-vote prior on such a KG (small-notes-corpus.ts; absent: voteWeight). */
  smallNotesVoteWeight?: number;
}

export const DEFAULT_EVIDENCE_OPTIONS: EvidenceReasonerOptions = {
  alpha: 0.03,
  notesAlpha: 0.3,
  notesUnreportedWeight: 0.1,
  // γ_notes on a small corpus of notes alone (small-notes-corpus.ts): measured on the real-notes folds (docs/notes.md, round 4).
  smallNotesUnreportedWeight: 0.6,
  // No vote prior there: its subcategories are clustered from ~60 features read from notes, and the vote
  // recounts the findings naive Bayes already weighs (measured on the real-notes folds, docs/notes.md, round 4).
  smallNotesVoteWeight: 0,
  // m of notes-backoff.ts: measured on the real-notes folds (docs/notes.md, issue 47).
  notesBackoff: 2,
  notesBackoffBelow: 10,
  notesCodedPrior: 4,
  // m of scoring-knowledge.ts: chosen on the six vignette dev sets only (docs/free-text.md).
  knowledgeRecords: 10,
  unreportedWeight: 1,
  unreportedPower: 2,
  minRecords: 5,
  declared: true,
  noise: 0.1,
  mixture: true,
  knnPower: 0.5,
  voteWeight: 0.5,
  knnWeight: 1,
  // π: chosen on the dev checks only, notes and DDXPlus + notes KGs (docs/notes.md, session 14: 80 let
  // the profiles override a naive Bayes that reads text well).
  profileWeight: 40,
  keyDifferenceWeight: 0.25,
  demographicWeight: 1,
  matchMargin: 0.02,
  maxDifferential: 10,
};

/** Every disease's raw log-score (snapshot disease order) with the completeness and kind the calibration keys on. */
export interface ScoredPosterior {
  scores: Float64Array;
  completeness: number;
  kind: InputKind;
}

export class EvidenceReasoner implements Reasoner {
  readonly name = 'evidence';
  private readonly opts: EvidenceReasonerOptions;
  /** `onScores`: sees each query's raw scores (the calibration stage fits on them; src/calibration/fit-stage.ts). */
  constructor(opts: Partial<EvidenceReasonerOptions> = {}, private readonly hooks: { onScores?: (s: ScoredPosterior) => void } = {}) {
    this.opts = { ...DEFAULT_EVIDENCE_OPTIONS, ...opts };
  }

  async reason(ctx: ReasonerContext): Promise<ReasonerOutput> {
    const { differential, probability } = rankWithProbability(ctx, this.opts, this.hooks.onScores);
    return { differential, followUps: null, report: null, degraded: false, probability };
  }
}

export function rankDiseases(ctx: ReasonerContext, opts: EvidenceReasonerOptions): RankedDisease[] {
  return rankWithProbability(ctx, opts).differential;
}

/**
 * The differential with each disease's posterior over every disease of the KG, rescaled by the
 * build's calibration when there is one (src/calibration/temperature.ts: a temperature per
 * input kind and completeness; monotone, so the order is the uncalibrated one). Listed scores
 * are not renormalised over the list: what the unlisted diseases keep is reported as such.
 */
export function rankWithProbability(ctx: ReasonerContext, opts: EvidenceReasonerOptions, onScores?: (s: ScoredPosterior) => void): { differential: RankedDisease[]; probability: ProbabilityInfo } {
  const s = ctx.snapshot;
  const D = s.diseases.length;
  const kind = inputKind(ctx.input);
  if (D === 0) return { differential: [], probability: { source: 'evidence-posterior', calibrated: false, inputKind: kind, completeness: null, temperature: null, tailScale: null, mix: null, topLabel: false, unlisted: 0, uncalibrated: null } };
  const said = reportedFeatures(s, ctx.matches, { margin: opts.matchMargin, threshold: ctx.input.options.matchThreshold });
  const reported = withImpliedParents(s, said);
  // Free text is read against what notes say where a disease has both kinds of records (same features, same order).
  const view = (kind === 'text' ? textView(s, opts) : null) ?? s;
  // The notes backoff is for KGs learnt from notes alone: a KG with coded features (DDXPlus, mixed)
  // keeps the rates it was chosen with, for text (its text view) and coded answers alike.
  const scoped = { ...(learntFromNotesAlone(s) ? notesAloneParams(s, opts) : { ...opts, notesBackoff: 0 }), knowledge: kind === 'text' ? opts.knowledgeRecords : 0 };
  const tables = nbTables(view, scoped);
  // Completeness counts what the patient said; an implied parent adds no information about length.
  const reportedWeight = said.reduce((a, r) => a + r.weight, 0);
  const lambda = effectiveUnreportedWeight(tables, reportedWeight, opts.unreportedWeight, opts.unreportedPower ?? 1);
  // Neighbours found from one or two findings' words are noise: their prior grows with completeness.
  const knnWeight = effectiveUnreportedWeight(tables, reportedWeight, opts.knnWeight, opts.knnPower ?? 0);
  const priors = contextPriors(ctx, { ...opts, voteWeight: scoped.voteWeight, knnWeight });
  // A complete record keeps the plain model; a short note's odd finding may be unrelated to the disease.
  const noise = opts.noise * (1 - completeness(tables, reportedWeight));
  const q = { unreportedWeight: lambda, noise, mixture: opts.mixture };
  const scores = nbScoresAll(view, tables, reported, q, opts.exhaustive ?? false);
  for (let d = 0; d < D; d++) scores[d]! += priors.total[d]!;
  const c = completeness(tables, reportedWeight);
  onScores?.({ scores: Float64Array.from(scores), completeness: c, kind });
  const params = ctx.calibration?.kinds[kind];
  // Ranked by the raw score, so a calibration can never reorder (ties keep the disease order).
  const { probs, beta } = calibratedPosterior(scores, params, c);
  const uncalibrated = params ? calibratedPosterior(scores, undefined, c).probs : probs;
  // The k best, and any other disease at 1% or more: an unlisted disease is below 1% (listed-diseases.ts).
  const order = listedDiseases(scores, probs, opts.maxDifferential).map((d) => ({ d, p: probs[d]! }));
  const listed = order.reduce((a, x) => a + x.p, 0);
  // Per-feature contributions only for the listed diseases: the evidence lines name them.
  const differential = order.map((x) => ({
    diseaseId: s.diseases[x.d]!.id,
    disease: s.diseases[x.d]!.name,
    ...diseaseLineage(s, x.d),
    score: x.p,
    evidence: [...featureEvidence(view, tables, x.d, reported, nbScore(view, tables, x.d, reported, q).contributions), ...priors.lines[x.d]!],
  }));
  const at = paramsAt(params, c); // a stratified calibration's band of this completeness
  const probability: ProbabilityInfo = { source: 'evidence-posterior', calibrated: params !== undefined, inputKind: kind, completeness: c, temperature: 1 / beta, tailScale: at?.tail ?? null, mix: at?.mix ?? null, topLabel: Boolean(at?.topLabel || at?.topOdds || at?.topBands), unlisted: Math.max(0, 1 - listed), uncalibrated: order.map((x) => uncalibrated[x.d]!) };
  return { differential, probability };
}

const notesAlone = new WeakMap<KgSnapshot, boolean>();
/** Every feature of the KG was learnt from notes (no coded source). */
function learntFromNotesAlone(s: KgSnapshot): boolean {
  let v = notesAlone.get(s);
  if (v === undefined) notesAlone.set(s, (v = s.features.length > 0 && s.features.every((f) => f.fromNotes === true)));
  return v;
}

/** The few reported features that moved this disease's score most, by their clinical labels (never patient text). */
function featureEvidence(s: KgSnapshot, t: NbTables, d: number, reported: ReturnType<typeof reportedFeatures>, contributions: Float64Array): string[] {
  const m = s.manifestations[d]!;
  // A finding the records never showed is shown at the rate it was scored with: declared (pδ) or known (scoring-knowledge.ts).
  const unseen = t.declaredUnseen[d];
  return reported
    .map((r, i) => ({ r, c: contributions[i]! }))
    .sort((a, b) => Math.abs(b.c) - Math.abs(a.c))
    .slice(0, 5)
    .map(({ r, c }) => {
      const pos = m.position.get(r.feature);
      const priced = pos === undefined ? unseen?.get(r.feature) : undefined;
      const prev = pos !== undefined ? m.prevalence[pos]! : priced ? Math.exp(priced[0]) : 0;
      const f = s.features[r.feature]!;
      return `${r.present ? '+' : '-'} ${shippedVoice().label(f)}: P=${prev.toFixed(2)} in disease, sigma=${sigma(s, r.feature).toFixed(1)}, score ${c >= 0 ? '+' : ''}${c.toFixed(2)}`;
    });
}

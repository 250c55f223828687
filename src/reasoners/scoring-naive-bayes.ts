// The tables and the per-query terms live beside this file; callers import them from here.
export { nbTables, typicalRecordLength } from './scoring-naive-bayes-tables.js';
export { alternativeGroups, completeness, diseasePairs, effectiveUnreportedWeight, nbScore, reportedTerms, softmax, sumOf, unseenPair } from './scoring-naive-bayes-query.js';

/**
 * Bernoulli naive-Bayes log-likelihood with Laplace smoothing: the offline evidence
 * reasoner's core score (not a MedRAG formula; MedRAG leaves reasoning to the LLM).
 *
 *   p(f|d)   = (count(f,d) + α) / (n_d + 2α)          smoothed prevalence of f in d
 *   p0(d)    = α / (max(n_d, n_min) + 2α)             a feature d's records never showed
 *   pδ(f,d)  = 1 / (n_d + 2)                          never shown, but declared for d by the source (scoring-declared.ts)
 *   p_k(f,d)                                          never shown, but known from curated knowledge (scoring-knowledge.ts; free text only)
 *   p̃(f|d)   = (1 − ε)·p(f|d) + ε·q(f)                 a finding may be unrelated to d (background rate q)
 *   score(d) = log prior(d)
 *            + Σ_{f reported present} w_f · log p̃(f|d)
 *            + Σ_{f reported absent}  w_f · log(1 − p̃(f|d))
 *            + λ · Σ_{f not reported} log(1 - p(f|d))   ("unreported" = weak absence)
 *
 * λ = 1 is the full Bernoulli model (every unreported feature counts as absent, true for
 * a complete DDXPlus record); a feature learnt from notes only (FeatureNode.fromNotes) weighs in
 * the unreported sum with γ_notes·λ only (`notesUnreportedWeight`, default 0.1): a note that does
 * not mention a finding says little about it, but a disease whose notes nearly all name a finding
 * (croup's barking cough) is a little less likely for a description silent on it, which is what a
 * bag of words' length-normalised cosine also counts. Chosen on the dev checks only (docs/notes.md):
 * γ 0.05-0.15 alike, naive Bayes alone +1 / +5 / +1 cases over 0 on vignettes dev → dev-b, dev-b →
 * dev and the notes-pc thirds; 1 (the full Bernoulli model) loses 3 / 1 / 2. A short free-text
 * description says little about what is absent, so λ is scaled by how complete it is (`effectiveUnreportedWeight`). The
 * unreported sum is computed as λ·(base(d) − Σ_reported log(1−p)), with base(d) the
 * all-absent sum precomputed once per snapshot; scoring-sparse.ts then scores every disease that
 * shows none of the reported features at once per p0 (their terms depend on d only through p0).
 *
 * n_min: with one training record a disease's unseen features are 30x likelier than with 60
 * (α/(n+2α)), so a one-record disease won whenever free-text findings fit nothing well
 * (Bronchiolitis, n = 1, for travel histories); counting it as n_min records removes that.
 *
 * ε (`noise`): a free-text finding the disease's records never showed (asthma's "worse at
 * night", absent from DDXPlus asthma) is not impossible, it may be a comorbidity or a
 * finding the sample does not model; the reasoner scales ε with how incomplete the
 * description is, so a complete coded record keeps the plain model.
 *
 * α_notes (`notesAlpha`): a feature learnt from notes only is smoothed with its own, larger α. A
 * disease has a handful of notes where DDXPlus gives it hundreds of records, and a note mentions
 * what struck its writer, so "never mentioned in this disease's five notes" is weak evidence of
 * absence: with the coded α (0.03) a risk factor none of stable angina's notes named cost it 5
 * nats. Chosen on the dev checks only (docs/notes.md): 0.2-0.5 gave the same figures, +2 cases on
 * both (vignette dev → dev-b, notes-pc thirds) over 0.03. Coded features keep α, so a DDXPlus
 * KG's figures are untouched.
 *
 * Alternatives (`mixture`): the features one finding may mean ("chest" → upper, lower or
 * side of the chest) are one observation, scored as log of their mean probability.
 */
export interface NbParams {
  alpha: number;
  /** α of the features learnt from notes only (FeatureNode.fromNotes); absent = α. */
  notesAlpha?: number;
  /** γ_notes: the share of λ an unreported feature learnt from notes only weighs with (absent = 0: not at all). */
  notesUnreportedWeight?: number;
  unreportedWeight: number;
  /** Exponent of the completeness scaling of λ (effectiveUnreportedWeight). */
  unreportedPower?: number;
  /** Training records a disease counts as at least, for unseen features (n_min above). */
  minRecords?: number;
  /** Price a declared-but-unseen feature with pδ (scoring-declared.ts) instead of p0. */
  declared?: boolean;
  /** m of scoring-knowledge.ts: a disease's known rate of a finding its records never showed counts as m records (absent or 0: knowledge unused). */
  knowledge?: number;
  /** m of the background backoff of features learnt from notes only (notes-backoff.ts; absent or 0: α alone). */
  notesBackoff?: number;
  /** Diseases with this many records or more are not backed off (notes-backoff.ts; absent: all are). */
  notesBackoffBelow?: number;
}

/** Per-query scoring knobs (the tables stay per snapshot). */
export interface NbQuery {
  unreportedWeight: number;
  /** ε of the background mixture, already scaled by the description's incompleteness. */
  noise?: number;
  /** Score a finding's alternatives (ReportedFeature.group) as one observation. */
  mixture?: boolean;
}

export interface NbTables {
  /** Per disease, aligned with `snapshot.manifestations[d].features`. */
  logP: Float64Array[];
  log1mP: Float64Array[];
  /** Per disease: log p and log(1-p) for a feature the disease has never shown. */
  logP0: Float64Array;
  log1mP0: Float64Array;
  /** The same for a feature learnt from notes only (smoothed with α_notes). */
  logP0Notes: Float64Array;
  log1mP0Notes: Float64Array;
  /** Per disease: Σ over all features of log(1 - p(f|d)). */
  allAbsent: Float64Array;
  logPrior: Float64Array;
  /** Mean number of features per training record: how long a "complete" description is. */
  meanFeaturesPerRecord: number;
  /** Per disease: features its records never showed but its source prices (declared: pδ; known: scoring-knowledge.ts) → [log p, log(1 − p)]. */
  declaredUnseen: Map<number, readonly [number, number]>[];
  /** Per feature: its share of all training records (the background rate q(f)). */
  marginal: Float64Array;
  /** Per feature: 1 for a coded feature, 0 for one learnt from notes only. */
  unreportedMask: Uint8Array;
  /** Per feature: the weight of its log(1 − p) in the unreported sum (1 coded; γ_notes for features learnt from notes only). */
  unreportedShare: Float64Array;
  /** With a notes backoff (notes-backoff.ts): per feature learnt from notes only, α_notes + m·q(f), and per disease n + 2α_notes + m (null: none). */
  notesBackoff: { numerator: Float64Array; denominator: Float64Array } | null;
}

/**
 * One reported feature: its index, polarity and weight (a fuzzy match counts partly). Features
 * of one `group` are alternatives for one finding ("sharp" = a sharp or a knife-stroke pain).
 */
export interface ReportedFeature {
  feature: number;
  present: boolean;
  weight: number;
  /** The finding (or alternatives key) this feature came from; absent: a group of its own. */
  group?: number;
}

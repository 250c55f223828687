import type { FeatureMatch, InputFinding } from '../findings.js';
import type { ConceptSet } from './concept-set.js';
import { conceptIndexFor, featureFor, type ConceptIndex } from './concept-index.js';
import { formVectorsFor, nearestForms, type PhraseEmbedder } from './embed-forms.js';
import { phoneticFor } from './find-mentions.js';
import { contentTokens, STOPWORDS, tokenize } from './normalize.js';
import { resolveFeatures, stoppedHabit, type ConceptMatch, type ResolveInput } from './resolve-features.js';
import type { ConceptLexicon } from './types.js';
import { matchEmergent } from './match-emergent.js';
import { NO_FINDING_ALONE, saysRelief } from './emergent-phrases.js';
import { matchMeasured } from './match-measured.js';
import { snapshotTiers } from './tiers.js';
import { lexiconConceptSet } from './lexicon-concept-set.js';
import { notForEmbedding } from './not-this-concept.js';
import { addImpliedInContext } from './implied-in-context.js';

/**
 * The concept layer as a matching stage: free-text findings → KG features through surface
 * forms (lexicon + labels), then, for findings whose words met no form, the nearest form by
 * embedding (embed-forms.ts). Returns per finding its matches (none: nothing recognised).
 */
export interface MatchConceptsInput {
  findings: InputFinding[];
  /** The request text the findings' clause spans point into (null: findings came structured). */
  text: string | null;
  /** Read only these findings (the others matched otherwise); absent: all. */
  only?: ReadonlySet<number>;
}

export interface MatchConceptsDeps {
  snapshot: ConceptSet;
  lexicon: ConceptLexicon | null;
  /** Static phrase embedder for the fallback (WordLlama, else hashed n-grams); null: no fallback. */
  phraseEmbedder?: PhraseEmbedder | null;
}

/** Cosine a phrase needs to its nearest concept form (tuned on the vignette dev set, docs/free-text.md). */
export const FORM_EMBEDDING_THRESHOLD = 0.65;
/** Cosine a one-word phrase needs (docs/notes.md, session 21). */
export const SINGLE_WORD_EMBEDDING_THRESHOLD = 0.8;
const contentWordCount = (text: string) => contentTokens(tokenize(text)).length;

/**
 * Builds the concept index and the embedded concept forms now (start-up) rather than in the
 * first request that needs them: thousands of forms to stem, and to embed when a phrase embedder is set.
 */
export function prepareConcepts(deps: MatchConceptsDeps): void {
  for (const tier of snapshotTiers(deps.snapshot)) if (tier !== 'emergent') phoneticFor(conceptIndexFor(deps.snapshot, deps.lexicon, tier));
  // The lexicon's own concepts, asked of findings a KG with later tiers leaves unread (readOutsideKg).
  if (deps.lexicon && snapshotTiers(deps.snapshot).some((t) => t !== 'coded')) phoneticFor(conceptIndexFor(lexiconConceptSet(deps.lexicon), deps.lexicon, 'coded'));
  if (deps.phraseEmbedder) formVectorsFor(conceptIndexFor(deps.snapshot, deps.lexicon, 'all'), deps.phraseEmbedder);
}

/** Findings the concept layer may read: free text, not uncertain, not hypothetical; not a value inside its limits (binned measurements only). */
const readable = (f: InputFinding) => !f.code && /[a-z]/i.test(f.text) && f.assertion !== 'hypothetical' && f.assertion !== 'possible' && !f.measured?.withinLimits;

/**
 * The finding's clause, the words of the clause's denied findings blanked when the finding itself
 * is present: a site borrows the clause's head word ("calf soft and non-tender"), and a denied
 * head ("non-tender") gives the calf no present pain.
 */
function clauseWithoutDenials(text: string, finding: InputFinding, all: readonly InputFinding[]): string {
  const { start, end } = finding.clause!;
  let clause = text.slice(start, end);
  if (finding.polarity !== 'present') return clause;
  for (const other of all) {
    const s = other.span;
    if (other === finding || other.polarity !== 'absent' || !s || s.start < start || s.end > end) continue;
    clause = clause.slice(0, s.start - start) + ' '.repeat(s.end - s.start) + clause.slice(s.end - start);
  }
  return clause;
}

export function matchConcepts(deps: MatchConceptsDeps, input: MatchConceptsInput): Map<number, FeatureMatch[]> {
  const found = new Map<number, ConceptMatch[]>();
  // A measured value a coded source of the set recorded is that source's binned feature (match-measured.ts): coded first, as the tiers.
  input.findings.forEach((finding, i) => {
    if (!finding.measured || (input.only && !input.only.has(i))) return;
    const hits = matchMeasured(deps.snapshot, finding);
    if (hits.length > 0) found.set(i, hits);
  });
  // Each finding's words, tokenized once for every tier that asks (and readOutsideKg).
  const inputs = new Map<number, ResolveInput>();
  const resolveInput = (i: number): ResolveInput => {
    let r = inputs.get(i);
    if (!r) {
      const finding = input.findings[i]!;
      const clause = input.text && finding.clause ? clauseWithoutDenials(input.text, finding, input.findings) : '';
      r = { finding, tokens: tokenize(finding.text), clauseTokens: clause ? tokenize(clause) : [] };
      inputs.set(i, r);
    }
    return r;
  };
  // Tier by tier (tiers.ts): a finding an earlier vocabulary read never reaches a later one.
  let outside: ReadonlySet<number> | null = null;
  for (const tier of snapshotTiers(deps.snapshot)) {
    const index = tier === 'emergent' ? null : conceptIndexFor(deps.snapshot, deps.lexicon, tier);
    if (tier !== 'coded') outside ??= readOutsideKg(deps, input, found, resolveInput);
    input.findings.forEach((finding, i) => {
      if (found.has(i) || outside?.has(i) || !readable(finding) || (input.only && !input.only.has(i))) return;
      const read = index ? resolveFeatures(index, resolveInput(i)) : matchEmergent(deps.snapshot, finding);
      // A measured finding's text is a vocabulary term as written: "Hypoxemia" is no misspelt "hyposmia".
      const hits = finding.measured ? read.filter((h) => !h.via.startsWith('typo-tolerant')) : read;
      if (hits.length > 0) found.set(i, hits);
    });
  }
  // A finding a vocabulary read keeps the words none of them knows, as emergent concepts (as the build counted them).
  if (snapshotTiers(deps.snapshot).includes('emergent')) {
    const unknown = unknownWords(deps.snapshot, deps.lexicon);
    for (const i of [...found.keys(), ...(outside ?? [])]) {
      if (input.findings[i]!.measured) continue; // a measurement's name is no phrase of the writer's
      const extra = matchEmergent(deps.snapshot, input.findings[i]!, unknown);
      if (extra.length > 0) found.set(i, [...(found.get(i) ?? []), ...extra]);
    }
  }
  if (deps.phraseEmbedder) embeddingFallback(conceptIndexFor(deps.snapshot, deps.lexicon, 'all'), deps.phraseEmbedder, { findings: input.findings, text: input.text ?? null }, found, input.only ?? null, outside ?? new Set());
  negatedInClauseWins(input.findings, found);
  firstEverHistoryDenied(deps.snapshot, input.findings, found);
  addImpliedInContext(deps.snapshot, found);
  const out = new Map<number, FeatureMatch[]>();
  for (const [i, hits] of found) {
    const best = new Map<number, FeatureMatch>();
    for (const c of hits) {
      const node = deps.snapshot.features[c.feature]!;
      const m: FeatureMatch = { findingIndex: i, featureId: node.id, featureText: node.text, similarity: Math.round(c.similarity * 1000) / 1000, polarity: c.polarity, alternatives: `${i}:${c.alternatives}`, via: c.via };
      const prev = best.get(c.feature);
      if (!prev || m.similarity > prev.similarity) best.set(c.feature, m);
    }
    out.set(i, [...best.values()]);
  }
  return out;
}

/**
 * Findings the KG's coded tier left unread that the lexicon reads as concepts the KG lacks
 * (lexicon-concept-set.ts): read at build, they would have been those concepts, so they reach
 * no later tier and no embedding neighbour; their unknown words may still be emergent concepts.
 */
function readOutsideKg(deps: MatchConceptsDeps, input: MatchConceptsInput, found: ReadonlyMap<number, unknown>, resolveInput: (i: number) => ResolveInput): ReadonlySet<number> {
  const out = new Set<number>();
  if (!deps.lexicon) return out;
  const index = conceptIndexFor(lexiconConceptSet(deps.lexicon), deps.lexicon, 'coded');
  input.findings.forEach((finding, i) => {
    if (found.has(i) || !readable(finding) || finding.measured || (input.only && !input.only.has(i))) return;
    if (resolveFeatures(index, resolveInput(i)).length > 0) out.add(i);
  });
  return out;
}

/** Words (stems) no dictionary tier of the set knows: what a read finding may still say beyond its concepts. */
export function unknownWords(set: ConceptSet, lexicon: ConceptLexicon | null): (stem: string) => boolean {
  // Asked once per note at build time and per query: one predicate per (set, lexicon).
  const perSet = unknownCache.get(set) ?? new WeakMap<object, (stem: string) => boolean>();
  unknownCache.set(set, perSet);
  const hit = perSet.get(lexicon ?? NO_LEXICON);
  if (hit) return hit;
  const indexes = snapshotTiers(set).filter((t) => t !== 'emergent').map((t) => conceptIndexFor(set, lexicon, t));
  const unknown = (stem: string) => !indexes.some((ix) => ix.byStem.has(stem));
  perSet.set(lexicon ?? NO_LEXICON, unknown);
  return unknown;
}
const unknownCache = new WeakMap<ConceptSet, WeakMap<object, (stem: string) => boolean>>();
const NO_LEXICON = {};

/**
 * A phrase with a real word in it: an unknown abbreviation ("TB") has no meaning a word vector
 * could carry, and a qualifier alone ("getting worse") names no finding (it had read as "more
 * prominent at night").
 */
const worded = (text: string) => tokenize(text).some((t) => t.norm.length >= 4 && !/\d/.test(t.norm) && !PERSON.has(t.norm) && !NO_FINDING_ALONE.has(t.norm) && !STOPWORDS.has(t.norm));
/** Words that name who the patient is ("baby", "infant girl"): no finding, and nearest to "expecting a baby". */
const PERSON = new Set(['baby', 'babies', 'infant', 'newborn', 'neonate', 'toddler', 'child', 'girl', 'daughter', 'son', 'patient', 'gentleman', 'lady', 'woman', 'male', 'female']);

/** The finding's words with the few words of its clause just before it ("goes back | when lying down"). */
function withLeadIn(f: InputFinding, text: string | null): string {
  if (!text || !f.span || !f.clause || f.span.start <= f.clause.start) return f.text;
  const before = text.slice(f.clause.start, f.span.start).split(/\s+/).filter(Boolean).slice(-RELIEF_LEAD_IN).join(' ');
  return `${before} ${f.text}`;
}
/** Words of the clause before a finding that may carry its relief cue. */
const RELIEF_LEAD_IN = 3;

/** One embedder call for every finding the dictionary left unread; each takes its nearest form if close enough. */
function embeddingFallback(index: ConceptIndex, embedder: PhraseEmbedder, input: { findings: InputFinding[]; text: string | null }, found: Map<number, ConceptMatch[]>, only: ReadonlySet<number> | null, outside: ReadonlySet<number>): void {
  const { findings } = input;
  // A measured finding is a vocabulary term: read exactly or not at all ("Elevated heart rate" is no felt palpitation).
  const left = findings.map((f, i) => i).filter((i) => !found.has(i) && !outside.has(i) && (!only || only.has(i)) && readable(findings[i]!) && findings[i]!.experiencer !== 'other' && !findings[i]!.measured && worded(findings[i]!.text) && !notForEmbedding(findings[i]!.text));
  if (left.length === 0) return;
  // One word alone is near the forms that contain it ("muffled" of "muffled voice", "worked" of
  // "off work") whatever it described: it needs a closer neighbour than a phrase does. (Asked at
  // its own threshold: the nearest form above it is the nearest form, and the scan can skip more.)
  const asked = left.map((i) => ({ text: findings[i]!.text, threshold: contentWordCount(findings[i]!.text) === 1 ? Math.max(SINGLE_WORD_EMBEDDING_THRESHOLD, FORM_EMBEDDING_THRESHOLD) : FORM_EMBEDDING_THRESHOLD }));
  const nearest = nearestForms(formVectorsFor(index, embedder), embedder, asked);
  left.forEach((fi, row) => {
    const f = findings[fi]!;
    const near = nearest[row];
    if (!near) return;
    // What eases a finding is no finding: "goes back when lying down" is no "worse when lying down",
    // "bearing down like I'm on the toilet stops it" no "always on the toilet". Only a form that
    // itself says relief may read it.
    if (saysRelief(withLeadIn(f, input.text)) && !saysRelief(near.entry.form)) return;
    const t = near.entry.target;
    // A relative's finding reaches family-history concepts only (as in the dictionary path).
    if (f.experiencer === 'family' && near.entry.context !== 'family') return;
    const feature = t.kind === 'evidence' ? featureFor(index, t.code, null) : t.kind === 'feature' ? t.feature : undefined;
    if (feature === undefined) return;
    // A stopped habit ("used to run every day") does not answer a present-tense exposure question.
    if (stoppedHabit(f) && near.entry.context === 'exposure') return;
    found.set(fi, [{ feature, similarity: near.score, polarity: f.polarity, alternatives: 'embedding', via: `embedding ${embedder.id}: nearest form "${near.entry.form}"` }]);
  });
}

/**
 * "I've never had asthma before": new to the patient, which for a complaint is its onset ("never
 * had chest pain before" is chest pain now) but for a history concept (an antecedent: a diagnosis,
 * a past event, a risk factor) is the answer no.
 */
function firstEverHistoryDenied(snapshot: MatchConceptsDeps['snapshot'], findings: readonly InputFinding[], found: Map<number, ConceptMatch[]>): void {
  for (const [i, hits] of found) {
    if (!findings[i]!.firstEver) continue;
    found.set(i, hits.map((h) => (h.polarity === 'present' && snapshot.features[h.feature]?.antecedent === true ? { ...h, polarity: 'absent' as const } : h)));
  }
}

/**
 * "Vaccinations not up to date": the analysis splits the subject from its negated predicate, and
 * both can name one concept. Within one clause the negation is what was said about it, so the
 * subject's present reading of the same feature is dropped.
 */
function negatedInClauseWins(findings: InputFinding[], found: Map<number, ConceptMatch[]>): void {
  const clauseOf = (i: number) => { const c = findings[i]!.clause; return c ? `${c.start}:${c.end}` : null; };
  const negated = new Set<string>();
  for (const [i, hits] of found) {
    const clause = clauseOf(i);
    if (clause) for (const h of hits) if (h.polarity === 'absent') negated.add(`${clause}|${h.feature}`);
  }
  if (negated.size === 0) return;
  for (const [i, hits] of found) {
    const clause = clauseOf(i);
    if (!clause) continue;
    const kept = hits.filter((h) => h.polarity !== 'present' || !negated.has(`${clause}|${h.feature}`));
    if (kept.length === hits.length) continue;
    if (kept.length > 0) found.set(i, kept);
    else found.delete(i);
  }
}

import type { FeatureNode } from '../src/domain/kg.js';
import { shippedVoice } from '../src/presentation/shipped-voice.js';

/**
 * Short clinical concepts for naming statistical groups (issue 19): what a clinician reads
 * in Neo4j Browser must be "cough · sore throat", not a question sentence or an answer
 * fragment ("lesions, redness or problems on your..."). With a concept lexicon (the DDXPlus
 * one in datasets/lexicon/, hierarchy-lexicon.ts) its canonical phrases are used; without one
 * a noun phrase is cut out of the source question, and a feature that yields no readable
 * concept (scales, negative answers, sentences) is skipped in favour of the next one.
 */
export interface ConceptNames {
  /** Identifies the lexicon in the build id: other names, other build. */
  id: string;
  /** Canonical phrase of a source question / field code ("E_201" -> "cough"). */
  evidence(code: string): string | null;
  /** Canonical phrase of one answer value of that question ("V_101" -> "sharp"). */
  value(code: string, valueCode: string): string | null;
}

export const NAME_SEPARATOR = ' · ';
const MAX_WORDS = 5;
const MAX_CHARS = 40;

/** A concept fit for a group name: short, no question, no ellipsis, not addressed to the patient. */
export function isReadableConcept(s: string): boolean {
  const words = s.split(/\s+/).filter(Boolean);
  return (
    words.length > 0 && words.length <= MAX_WORDS && s.length <= MAX_CHARS &&
    !/[?:;]|\.\.\.|…/.test(s) && !/\b(you|your|yours|i|my|me)\b/i.test(s) && !AUX_START.test(s) && !GENERIC.has(s.toLowerCase()) && !OTHER_PERSON.test(s)
  );
}

/** A lexicon phrase fit for a name: no question or ellipsis, six words at most. */
function isShortPhrase(s: string): boolean {
  const words = s.split(/\s+/).filter(Boolean).length;
  return words > 0 && words <= MAX_WORDS + 1 && s.length <= 50 && !/[?]|\.\.\.|…/.test(s);
}

/** Heads too vague to name a group by themselves. */
const GENERIC = new Set(['pain', 'fluid', 'nose', 'stools', 'medication', 'consulting', 'difficulty', 'previously', 'currently', 'find', 'one', 'known issue', 'hard time', 'symptoms', 'symptom', 'problem', 'problems', 'issue', 'condition', 'person', 'pain somewhere', 'anything', 'something']);
/** Family history and contacts name a risk, not the group's clinical picture. */
const OTHER_PERSON = /\b(family|members?|mother|father|someone|anyone|person|partner)\b/i;
const AUX_START = /^(do|does|did|are|is|was|were|have|has|had|can|could|will|would|how|what|where|when|which|who|why|in|of|that|to|on|at|for|with|so|able|unable|lose|lost|find|live|work|infected|treated|diagnosed|symptoms|attend)\b/i;

/** "Do you have a cough that produces colored sputum?" -> "cough"; null when no noun phrase comes out. */
export function nounPhrase(question: string): string | null {
  let s = question.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim().replace(/[?:.!]+$/, '');
  const lead = QUESTION_LEAD.exec(s);
  if (!lead) return null;
  s = s.slice(lead[0].length);
  s = firstNounPhrase(s);
  s = s.replace(LEADING_FILLER, '').trim();
  return s !== '' && isReadableConcept(s) ? s : null;
}

/**
 * Text up to the first clause boundary. "swollen or painful lymph nodes": a lone word before
 * "or"/"and" is a coordinated adjective, so the phrase continues after the next one
 * ("lymph nodes"); "chills or shivers" keeps "chills".
 */
function firstNounPhrase(s: string): string {
  const parts = s.split(CLAUSE_BOUNDARY);
  const first = parts[0]!.trim();
  const coordinated = /^(\S+) (?:or|and) (.+)$/i.exec(s);
  if (coordinated && first.split(/\s+/).length === 1) {
    const rest = coordinated[2]!.split(CLAUSE_BOUNDARY)[0]!.trim().split(/\s+/);
    const after = rest.slice(1).join(' ');
    if (rest.length >= 3 && isReadableConcept(after)) return after;
  }
  return first;
}

/** The patient-directed lead-in of a yes/no question, with the verbs and fillers that follow it. */
const QUESTION_LEAD =
  /^(?:in the last \w+, )?(?:do|does|did|are|were|have|has|is|was)\s+(?:you|your)\s+(?:(?:currently|recently|ever|constantly|regularly|suddenly|previously|now|also|have|had|feel|felt|been|being|experienc\w*|notic\w*|suffer\w*|from|take|taken|taking|using|produce|diagnosed|treated|infected|with|for)\s+)*(?:(?:a|an|any|the|some|very|much)\s+)*/i;
/** Where the noun phrase ends: the first subordinate clause, list or qualifier. */
const CLAUSE_BOUNDARY = /,|;|\/| opening| that | which | who | when | while | because | related | compared | in the | over the | within | since | during | or | and | with | in one | in both | on one | on your | in your | to treat | before | after | like | even | than /i;
const LEADING_FILLER = /^(?:(?:a|an|any|the|some|significantly|very|much|more|new)\s+)+/i;

/** "a knife stroke" -> "knife stroke": answer values without their articles, short ones only. */
function shortValue(v: string): string | null {
  const s = v.replace(/^(a|an|the)\s+/i, '').replace(/\([^)]*\)/g, '').trim();
  return s !== '' && s.split(/\s+/).length <= 4 && isReadableConcept(s) ? s : null;
}

// "NA": DDXPlus's "not applicable" (a rash colour when there is no rash) names nothing either.
const NEGATIVE_VALUES = new Set(['no', 'n', 'nowhere', 'none', 'false', 'na']);
const VAGUE_EMERGENT = /^(?:worse|better|positive|negative|normal|abnormal|mild|moderate|severe|acute|chronic|left|right|noted|states|denies|reports|recent|history|patient|given|started|since|return|home|improved|stable|afebrile|tender|pain|exam|labs|admitted|admission|discharged|follow|clear|intact|appears|alert)\b/i;
const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * The short clinical concept of one feature, or null when it makes no name: numeric scale
 * values and negative answers never do (a group is not named "itching severity 0").
 */
export function featureConcept(f: FeatureNode, names: ConceptNames | null): string | null {
  // A concept that emerged from notes names a group only when it is a clinical phrase, not an
  // abbreviation or a word of any note ("ua", "le", "worse", "positive").
  if (f.vocabulary === 'emergent' && (f.text.replace(/^fh /, '').length < 5 || VAGUE_EMERGENT.test(f.text) || f.text.startsWith('fh '))) return null;
  const value = f.valueText?.trim() ?? null;
  if (value !== null && (NUMERIC.test(value) || NEGATIVE_VALUES.has(value.toLowerCase()))) return null;
  const yes = value === null || value.toLowerCase() === 'yes';
  // The label the clinician reads everywhere else (issue 48: one voice), lower-cased as a name part ("pain at tonsil", "COPD");
  // one too long for a name leaves the lexicon's shorter phrase to name the feature.
  const reviewed = shippedVoice().reviewedLabel(f);
  if (reviewed !== null && isShortPhrase(reviewed)) return reviewed.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
  const lexical = f.code && names ? names.evidence(f.code) : null;
  if (lexical) {
    // "stabbing (knife-like)" inside "pain character (...)": the gloss goes.
    const v = !yes && f.valueCode ? (names!.value(f.code!, f.valueCode)?.replace(/\s*\([^)]*\)/g, '').trim() ?? null) : null;
    // Reviewed canonical phrases: trusted as clinical concepts ("family history of ..."), kept short.
    return isShortPhrase(lexical) ? (v && isShortPhrase(v) ? `${lexical} (${v})` : lexical) : null;
  }
  // "pain character: a knife stroke": the source's short label, with the value when short.
  const label = /^([^:?]{2,40}):\s*(.+)$/.exec(f.text);
  if (label && !yes) {
    const v = shortValue(label[2]!);
    return isReadableConcept(label[1]!) ? (v ? `${label[1]} (${v})` : label[1]!) : null;
  }
  // A question is cut down to its noun phrase; a short field name or free-text finding is one already.
  const text = (f.question ?? f.text.replace(/\s+yes$/i, '')).trim();
  return isReadableConcept(text) ? text : nounPhrase(text);
}

/**
 * A group name from its most distinctive features (best first): the first `k` distinct
 * readable concepts joined by " · "; null when none is readable (the caller names the group
 * otherwise).
 */
export function conceptName(features: readonly FeatureNode[], k: number, names: ConceptNames | null, taken: ReadonlySet<string> = new Set()): string | null {
  const concepts: string[] = [];
  const questions = new Set<string>();
  const head = (c: string) => c.split(' (')[0]!;
  for (const f of features) {
    const c = featureConcept(f, names);
    // One concept per question: "pain location (lower chest) · pain location (breast)" says less than two questions.
    if (c === null || concepts.some((x) => head(x) === head(c)) || (f.code !== null && questions.has(f.code))) continue;
    if (f.code !== null) questions.add(f.code);
    concepts.push(c);
    // A name another group already has takes one more concept (two at most), so groups stay distinguishable.
    if (concepts.length >= k && (!taken.has(concepts.join(NAME_SEPARATOR)) || concepts.length >= k + 2)) break;
  }
  return concepts.length > 0 ? concepts.join(NAME_SEPARATOR) : null;
}

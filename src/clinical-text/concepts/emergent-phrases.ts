import type { InputFinding } from '../findings.js';
import { STOPWORDS, tokenize } from './normalize.js';
import { isProperNoun, PLACES_THE_PATIENT } from './not-a-concept.js';
import noteWords from './note-words.json' with { type: 'json' };

/**
 * Candidate emergent concepts of one finding no vocabulary read (issue 24): its content words,
 * and each pair of neighbouring content words, as stem keys ("rebound tenderness" → "rebound",
 * "tenderness", "rebound tendernes"). The build counts them across the notes and keeps those
 * enough patients share (kg-build/emergent-concepts.ts); the query reads a finding into the same
 * keys, so a note and a question about it meet on one feature. A relative's finding gets its own
 * keys ("fh " prefix): "mother had a clot" is not the patient's clot.
 */
export interface EmergentPhrase {
  /** Stems joined by one space: the concept's identity. */
  key: string;
  /** The words as written (lower case): the name the concept is shown by. */
  surface: string;
}

/** Words that say nothing about a disease by themselves (beside the matcher's stopwords). */
const FILLER: ReadonlySet<string> = new Set([
  'not', 'no', 'yes', 'but', 'with', 'without', 'since', 'after', 'before', 'about', 'around', 'into', 'over', 'than', 'then', 'when',
  'while', 'which', 'who', 'what', 'where', 'now', 'today', 'yesterday', 'ago', 'day', 'days', 'week', 'weeks', 'hour', 'hours',
  'month', 'months', 'year', 'years', 'old', 'yo', 'y/o', 'also', 'well', 'still', 'all', 'more', 'most', 'much', 'few', 'this',
  'these', 'those', 'they', 'them', 'we', 'you', 'him', 'can', 'could', 'would', 'will', 'did', 'does', 'do', 'dont', 'didnt',
  'doesnt', 'cant', 'wont', 'isnt', 'not', 'to', 'up', 'out', 'off', 'down', 'like', 'since', 'noted', 'note', 'states', 'per',
  'x', 'w/', 'w', 'h/o', 's/p', 'due', 'mild', 'some', 'other', 'any', 'one', 'two', 'three', 'times', 'time', 'started', 'start',
  'began', 'went', 'go', 'going', 'been', 'being', 'went', 'today', 'last', 'night', 'morning', 'recent', 'recently', 'new',
  // Labels of the identifiers the scrubber removed: left alone they would be in every note's header.
  'mrn', 'dob', 'acct', 'ssn', 'phone', 'tel', 'address', 'name', 'email', 'seen', 'visit', 'date',
  // Units: "Urate 10.4 mg/dL" says urate, the unit says which lab wrote it.
  'mg/dl', 'mmol/l', 'umol/l', 'g/dl', 'g/l', 'mg/l', 'meq/l', 'iu/l', 'u/l', 'ng/ml', 'pg/ml', 'mmhg', 'bpm', 'kg/m2', 'mls', 'mcg',
  // A note's template and documentation words (note-words.json: 'intact', 'review', 'reveals' became concepts of every disease).
  ...(noteWords as { never: string[] }).never,
]);

/**
 * Words that name no finding alone, though they qualify one ("worse bending", "goes away"): a
 * candidate of one such word is never a concept, its pairs still can be. Before this list they were
 * concepts because a writer used them for one condition's cases ("sometimes", "say", "side").
 */
export const NO_FINDING_ALONE: ReadonlySet<string> = new Set([
  'worse', 'better', 'side', 'sometimes', 'only', 'across', 'during', 'under', 'between', 'say', 'says', 'said', 'goes', 'comes',
  'happens', 'lasts', 'changes', 'episodes', 'normal', 'positive', 'negative', 'left', 'right', 'same', 'similar', 'usual', 'even',
  'every', 'maybe', 'something', 'stuff', 'super', 'really', 'bad', 'look', 'looks', 'help', 'trying', 'whole', 'full', 'able',
  'unable', 'took', 'gave', 'given', 'found', 'brought', 'keep', 'should', 'once', 'ill', 'fine', 'weird', 'big', 'small', 'low',
  'high', 'base', 'regular', 'occasional', 'constant', 'intermittent', 'increasing',
  ...PLACES_THE_PATIENT,
]);

const RELATIVE = 'fh ';

/**
 * Words that say what eases a finding ("relieved by sitting", "better with rest", "goes away with
 * rest"): the words after one are the relief, not the finding. Without this "relieved by sitting"
 * (stable angina) and "pain while sitting" (unstable angina) were one concept "sitting".
 */
const RELIEF_CUES: ReadonlySet<string> = new Set([
  'relieved', 'relieves', 'relieve', 'relief', 'eased', 'eases', 'ease', 'easing', 'better', 'improves', 'improved', 'improving',
  'helped', 'helps', 'settles', 'settled', 'subsides', 'subsided', 'alleviated', 'resolves', 'resolved', 'away',
]);
const DENIED_RELIEF: ReadonlySet<string> = new Set(['not', 'no', 'never', 'nothing', 'nor', 'without']);
/**
 * Whether a phrase says what eases or ends something ("goes back when lying down", "bearing down
 * stops it", "better with rest"): a relief cue not denied, a thing that "goes/pops back", or "stops (it)" at the end.
 */
export function saysRelief(text: string): boolean {
  const tokens = tokenize(text);
  return tokens.some((t, i) => {
    const before = tokens[i - 1]?.norm ?? '';
    if (RELIEF_CUES.has(t.norm)) return !DENIED_RELIEF.has(before);
    if (t.norm === 'back') return GOES_BACK.has(before);
    return (t.norm === 'stops' || t.norm === 'stopped') && (i === tokens.length - 1 || tokens[i + 1]!.norm === 'it');
  });
}
const GOES_BACK: ReadonlySet<string> = new Set(['goes', 'went', 'go', 'going', 'pops', 'popped', 'slips', 'slides', 'gone']);

/** Key and surface prefixes of a relief's words. */
const RELIEF_KEY = 'rb ';
const RELIEF_SURFACE = 'relieved by ';

function contentWords(text: string): { stem: string; norm: string; relief: boolean }[] {
  const tokens = tokenize(text);
  // A relief cue denied ("not relieved by rest") leaves its words plain: that is no relief. A cue
  // word is a qualifier, never a concept's word.
  const cueAt = tokens.findIndex((t, i) => RELIEF_CUES.has(t.norm) && !DENIED_RELIEF.has(tokens[i - 1]?.norm ?? ''));
  return tokens
    .map((t, i) => ({ t, relief: cueAt >= 0 && i > cueAt }))
    .filter(({ t }) => !RELIEF_CUES.has(t.norm) && !STOPWORDS.has(t.norm) && !FILLER.has(t.norm) && /[a-z]/.test(t.norm) && !/\d/.test(t.norm))
    // A name the scrubber missed ("seen at Barnabas") is no finding of any disease (not-a-concept.ts).
    .filter(({ t }) => !isProperNoun(text, t))
    .filter(({ t }) => t.norm.length >= 3 || /^[A-Z]{2}$/.test(t.raw))
    .map(({ t, relief }) => ({ stem: t.stem, norm: t.norm, relief }));
}

/**
 * The finding's candidate keys (no duplicates); none for uncertain, hypothetical or someone else's
 * findings. `keep`: only words it accepts (a finding a vocabulary read gives its words no
 * vocabulary knows: "photosensitive malar rash" read as a rash still says "photosensitive malar").
 */
export function emergentPhrases(f: Pick<InputFinding, 'text' | 'assertion' | 'experiencer'>, pairs = true, keep?: (stem: string) => boolean): EmergentPhrase[] {
  if (f.assertion === 'possible' || f.assertion === 'hypothetical' || f.experiencer === 'other') return [];
  const prefix = f.experiencer === 'family' ? RELATIVE : '';
  const words = contentWords(f.text).filter((w) => !keep || keep(w.stem));
  const out = new Map<string, string>();
  words.forEach((w, i) => {
    const [key, surface] = w.relief ? [prefix + RELIEF_KEY, prefix + RELIEF_SURFACE] : [prefix, prefix];
    out.set(key + w.stem, surface + w.norm);
    const next = words[i + 1];
    // A pair never spans the cue: "pain" and "rest" of "pain relieved by rest" are no phrase.
    if (pairs && next && next.relief === w.relief) out.set(`${key}${w.stem} ${next.stem}`, `${surface}${w.norm} ${next.norm}`);
  });
  return [...out].map(([key, surface]) => ({ key, surface }));
}

/** The key a stored form (a surface seen in notes) reads back to. */
export function formKey(form: string): string {
  const relative = form.startsWith(RELATIVE);
  let body = relative ? form.slice(RELATIVE.length) : form;
  const relief = body.startsWith(RELIEF_SURFACE);
  if (relief) body = body.slice(RELIEF_SURFACE.length);
  return (relative ? RELATIVE : '') + (relief ? RELIEF_KEY : '') + tokenize(body).map((t) => t.stem).join(' ');
}

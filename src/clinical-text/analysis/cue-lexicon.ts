import { SHIPPED_HEADINGS } from '../sections/shipped-headings.js';
import { familyAnchorDefs, relationDefs } from './relation-cues.js';
/**
 * Cue phrases in the style of NegEx / ConText / pyConText. Written from the negspacy 1.1.0
 * `en_clinical` termsets and medspacy 1.3.1 `context_rules.json` (read, reimplemented, not
 * called), extended with the lay wording patients type ("I'm not", "haven't", "can't catch
 * my breath"). Phrases are lower-case token sequences as `segment.ts` tokenises them.
 */
export type CueKind =
  | 'negated' | 'possible' | 'hypothetical' | 'historical' | 'family' | 'other'
  | 'pseudo' | 'terminate' | 'positive' | 'current' | 'exposure' | 'header' | 'frame';

/** strong: scope runs over a following comma list of bare noun phrases ("denies fever, chills, N/V");
 *  weak: the same, but only when the rest of the sentence is such a list ("no fever, chills");
 *  none: a list must close with and/or/nor to stay in scope ("I don't have fever, chills or cough"). */
export type ListReach = 'strong' | 'weak' | 'none';

export interface CueDef {
  tokens: readonly string[];
  kind: CueKind;
  direction: 'forward' | 'backward';
  list: ListReach;
  /** Pseudo-negations that name a finding of their own: "no appetite" -> "loss of appetite". */
  rewrite: string | null;
}

const NEG_STRONG = [
  'denies', 'denied', 'deny', 'denying', 'denys', 'denise', 'denie', 'negative for', 'neg for', 'no h/o', 'no hx of', 'no hx', 'no history of', 'no past history of',
  'no signs of', 'no sign of', 'no evidence of', 'no complaints of', 'no complaint of', 'no c/o', 'free of', 'absence of', 'neither',
  'no symptoms of', 'no family history of', 'no fhx of', 'no known', 'negative :', 'neg :', 'absent :', 'none of :', 'denies :', 'no personal history of', 'no personal hx of',
  'denied :', 'negative -', 'neg -',
];
const NEG_WEAK = ['no', 'without', 'w/o', 'never', 'never had', 'no recent', 'no new', 'no more', 'no further', 'not any', 'none of'];
const NEG_AUX = [
  'not', "don't", 'dont', 'do not', "doesn't", 'doesnt', 'does not', "didn't", 'didnt', 'did not', "haven't", 'havent', 'have not',
  "hasn't", 'hasnt', 'has not', "hadn't", 'had not', "isn't", 'isnt', 'is not', "aren't", 'arent', 'are not', "wasn't", 'wasnt',
  'was not', "weren't", 'werent', 'were not', "won't", 'will not', "i'm not", 'im not', 'i am not', 'am not', 'nor', 'resolved',
  'ruled out', 'rules out', 'absent', '-neg', 'nothing like', 'no one', 'nobody',
];
const NEG_BACKWARD = [
  'resolved', 'has resolved', 'have resolved', 'now resolved', 'ruled out', 'was ruled out', 'been ruled out', 'unlikely', 'negative',
  'was negative', 'were negative', 'neg', 'absent', 'gone', 'went away', 'has gone', 'have gone', 'not present', 'denied', 'none',
  'no', 'nil', 'not',
  // "Flu vaccine not given", "booster not received": a thing withheld, said after it. Not "not done": a test not done is no negative result.
  'not given', 'not received', 'not administered',
];
const POSSIBLE_FWD = [
  '?q', 'possible', 'possibly', 'probable', 'probably', 'likely', 'to rule out', 'rule-out', 'questionable',
  'question of', 'maybe', 'might be', 'might have', 'may be', 'may have', 'could be', 'could have', 'could it be', 'could this be',
  'is it', 'is this', 'do i have', 'could i have', 'perhaps', 'suspect', 'suspected', 'suspicion of', 'suspicious for',
  'concerned about', 'concerning for', 'worried about', 'worried i have', "worried it's", 'worried that', 'worrisome for',
  'i think i have', 'think i have', "i think it's", 'i think', 'i think i had', 'think i had', 'i guess', 'i might have',
  "scared it's", 'scared i have', 'scared that', "afraid it's", 'afraid i have', 'afraid that', 'i wonder if', 'wonder if', 'wondering if',
  'worried it might be', 'might it be', 'not sure if', 'unsure if', 'not sure whether', 'versus', 'vs', 'cannot rule out',
  "can't rule out", 'cant rule out', 'not ruled out', 'cannot exclude', "can't exclude", 'consider',
  'eval for', 'query', 'presumed', 'equivocal for',
];
/** Possible cues that head a list ("r/o PE, ACS, dissection"): scope runs over it as after "denies". */
const POSSIBLE_STRONG = [
  'r/o', 'rule out', 'differential includes', 'concern for', 'evaluate for', 'ddx :', 'ddx', 'ddx includes', 'differential :',
  'differential diagnosis :', 'differential diagnosis includes',
];
const POSSIBLE_BWD = ['?', 'possible', 'suspected', 'not ruled out', 'not excluded', 'cannot be excluded', 'is possible', 'vs'];
const HYPOTHETICAL = [
  'return if', 'come back if', 'call if', 'seek care if', 'seek medical attention if', 'in case of', 'in case', 'should he', 'should she',
  'should you', 'should they', 'should there', 'should the patient', 'should pt', 'should symptoms', 'watch for', 'monitor for',
  'look out for', 'as needed', 'prn', 'in the event of', 'return for', 'come back for', 'return to ed if', 'return to er if',
  'if he', 'if she', 'if they', 'if you', 'if there', 'if the patient', 'if pt', 'if symptoms', 'if any', 'in order to prevent',
  'call us if', 'call me if', 'call 911 if', 'call your doctor if', 'go to the er if', 'go to the ed if', 'seek help if', 'return to clinic if',
  'return sooner if', 'come back sooner if', 'to return if', 'to come back if', 'return precautions for',
];
const HISTORICAL_STRONG = [
  'h/o', 'hx', 'hx of', 'history of', 'hist of', 'pmh', 'pmhx', 'pmh of', 'past medical history', 'past medical history of',
  'medical history of', 'past history of', 'prior history of', 's/p', 'status post', 'previous history of', 'known history of',
  'personal history of', 'personal hx of',
];
const HISTORICAL_FWD = [
  'previous', 'previously', 'prior', 'used to', 'former', 'formerly', 'ex', 'in the past', 'as a child', 'as a kid', 'as a teenager',
  'when i was a child', 'when i was a kid', 'when i was young', 'when i was little', 'when i was younger', 'childhood', 'last year',
  'years ago', 'a few years ago', 'many years ago', 'recovered from', 'treated for', 'no longer', 'quit', 'remote',
];
const HISTORICAL_BWD = [
  'in the past', 'as a child', 'as a kid', 'as a teenager', 'when i was a child', 'when i was a kid', 'when i was young',
  'when i was little', 'when i was younger', 'last year', 'years ago', 'a few years ago', 'many years ago', 'previously',
  'in childhood', 'long ago', 'a long time ago', 'in the past year',
];
const CURRENT = [
  'now', 'currently', 'presently', 'today', 'at present',
  'this time', 'tonight', 'this morning', 'since then', 'this week', 'this am', 'all of a sudden', 'out of nowhere',
];
const POSITIVE = [
  'reports', 'reported', 'reporting', 'endorses', 'endorsed', 'endorsing', 'complains of', 'complaining of', 'complained of', 'c/o',
  '+pos', 'positive for', 'pos for', 'pos :', 'positive :', 'admits to', 'notes', 'noted', 'presents with', 'presenting with', 'comes in with', 'came in with', 'presented with', 'has', 'have', 'i have', "i've", 'ive', 'i had', 'i get', 'i feel', 'with',
  'significant for', 'remarkable for', 'there is', 'there are', "there's",
];
const TERMINATE = [
  'but', 'however', 'although', 'though', 'except', 'except for', 'yet', 'whereas', 'aside from', 'apart from', 'other than', 'besides',
  'which', 'nevertheless', 'otherwise', 'until', 'till', 'up until',
];
const EXPOSURE = [
  'sick contact', 'sick contacts', 'contact with', 'in contact with', 'been in contact', 'close contact', 'exposed to', 'exposure to',
  'been around', 'around someone', 'around people', 'someone', 'somebody', 'everyone at', 'everybody at', 'people at', 'others at',
  'contact of', 'contact w/', 'in contact w/', 'travel', 'traveled', 'travelled', 'trip to', 'came back from', 'returned from',
];
/** A question about findings the writer has ("what could cause chest pain?"): the words go, the "?" makes nothing possible. */
const FRAME = [
  'what could cause', 'what can cause', 'what causes', 'what is causing', "what's causing", 'whats causing', 'why do i have', 'why do i get',
  'why do i feel', 'why am i', 'why is my', 'why does my', 'should i be worried about', 'should i worry about', 'should i be concerned about',
  'is it normal to have', 'is it normal to', 'is it normal that', 'what can i do about', 'what should i do about', 'how do i get rid of',
  'how can i stop', 'how can i get rid of', 'what do i do about', 'what helps with', 'what is wrong with', "what's wrong with", 'whats wrong with',
];

/**
 * Investigations a note reports in prose under their name ("CT: dilated appendix, no perforation",
 * "UA dip: nitrite +"): header cues here, and no "label: answer" rendering for decompose.ts, which
 * also takes them with a qualifier ("CT A/P with contrast:").
 */
export const INVESTIGATIONS: ReadonlySet<string> = new Set([
  'ct', 'cta', 'mri', 'mra', 'us', 'xr', 'x-ray', 'xray', 'echo', 'egd', 'eeg', 'emg', 'ncs', 'lp', 'csf', 'ua', 'ua dip', 'urine dip',
  'dipstick', 'urinalysis', 'urine culture', 'culture', 'cultures', 'serology', 'swab', 'telemetry', 'duplex', 'duplex us', 'bedside us',
  'renal us', 'tvus', 'uptake scan', 'nasendoscopy', 'arthrocentesis', 'aspirate', 'biopsy', 'holter', 'spirometry', 'peak flow', 'abg',
  'vbg', 'bloods', 'fbc', 'cbc', 'bmp', 'cmp', 'lft', 'lfts', 'u&e', 'u&es', 'data', 'results', 'investigations', 'ix',
]);
/** Exam and note headings a note writes prose under (beyond the shipped section headings). */
export const NOTE_HEADINGS: ReadonlySet<string> = new Set(['rectal', 'pr', 'pelvic', 'speculum', 'fluorescein', 'social', 'disposition', 'triggers', 'vaccines', 'sx']);
const INVESTIGATIONS_WITH_SITES = [
  ...INVESTIGATIONS, 'ct head', 'ct chest', 'ct abdomen', 'ct kub', 'ct a/p', 'cta neck', 'cta head', 'mri brain', 'xr abdomen',
];

const HEADER = [
  'cc', 'chief complaint', 'hpi', 'history of present illness', 'ros', 'review of systems', 'exam', 'physical exam', 'vitals',
  'assessment', 'plan', 'a/p', 'impression', 'presenting complaint', 'pc', 'hpc', 'social history', 'sh', 'meds', 'medications',
  'subjective', 'objective', 'symptoms', 'note', 'lungs', 'heart', 'cv', 'cvs', 'resp', 'abd', 'abdomen', 'neuro', 'skin', 'ext',
  'extremities', 'heent', 'gen', 'general', 'msk', 'labs', 'imaging', 'cxr', 'ecg', 'ekg',
  ...INVESTIGATIONS_WITH_SITES,
  ...NOTE_HEADINGS,
];

/** Pseudo-negations: they look like negations but the finding is present (negspacy "pseudo_negations" and lay forms). */
const PSEUDO: [string, string | null][] = [
  ['no appetite', 'loss of appetite'], ['not hungry', 'loss of appetite'], ['lost my appetite', 'loss of appetite'],
  ['no desire to eat', 'loss of appetite'], ["don't feel like eating", 'loss of appetite'], ['not eating', 'loss of appetite'],
  ['not much of an appetite', 'loss of appetite'], ['not eating much', 'loss of appetite'], ['not eating well', 'loss of appetite'],
  ['no energy', 'lack of energy'], ['no strength', 'weakness'],
  // Unprotected sex is a finding of its own, not a negation of sex.
  ['without a condom', null], ['without condoms', null], ['without condom', null], ['without using a condom', null], ['without protection', null],
  ['no condom', null], ['no condoms', null],
  ["can't catch my breath", null], ['cant catch my breath', null], ['cannot catch my breath', null], ["can't breathe", null],
  ['cannot breathe', null], ['cant breathe', null], ["can't stop", null], ['cant stop', null], ['cannot stop', null], ['not able to', null],
  ['unable to', null], ["can't", null], ['cannot', null], ['cant', null], ['can not', null], ["couldn't", null], ['couldnt', null],
  ['could not', null], ['not able', null], ['no better', null], ['not better', null], ['no improvement', null], ['not improving', null],
  ['not improved', null], ['no relief', null], ['not relieved', null], ['not only', ''], ['not just', ''], ['no change', null],
  ['no significant change', null], ['no definite change', null], ['no increase', null], ['not certain', null], ['gram negative', null],
  ['no matter', null], ['no pmh', ''], ['no significant pmh', ''], ['no past medical history', ''], ['no significant past medical history', ''],
  ['no medical history', ''], ['no significant medical history', ''], ['no known medical problems', ''], ['no medical problems', ''],
  // Normal intake, not alcohol ("eating and drinking", "drinking well" in a child's note).
  ['eating and drinking', ''], ['eating and drinking well', ''], ['eating and drinking normally', ''], ['drinking well', ''],
  ['drinking fluids', ''], ['drinking normally', ''], ['feeding well', ''], ['drinks ok', ''], ['drinking ok', ''], ['eating ok', ''],
  ['eats and drinks', ''], ['drinks well', ''],
  // Words an embedding took for a finding: "they pass after 10 min" is no fainting, "cold air" no "out cold".
  // A vagal manoeuvre is what stops a tachycardia, no breathing complaint ("if I hold my breath and push it stops").
  ['hold my breath', ''], ['holding my breath', ''], ['held my breath', ''], ['hold his breath', ''], ['hold her breath', ''], ['bear down', ''], ['bearing down', ''], ['valsalva', ''],
  ['they pass', ''], ['it passes', ''], ['passes after', ''], ['cold air', ''], ['in the cold', ''], ['cold weather', ''], ['born and raised', ''], ['born and bred', ''],
  // "still isn't right": unwell, not a denial of what follows ("isn't right after that gastro bug").
  ["isn't right", ''], ['isnt right', ''], ["hasn't been right", ''], ["not been right", ''], ["hasn't been right since", ''], ["not right since", ''], ["isn't himself", ''], ["isn't herself", ''],
  // Pain-free now is no denial of the pain that brought the patient ("3 episodes today ..., currently pain-free").
  ['currently pain-free', ''], ['currently pain free', ''], ['pain-free now', ''], ['pain free now', ''], ['now pain-free', ''], ['now pain free', ''], ['pain-free at present', ''],
  // Still working says how ill one is not, not who was ill around one ("going around at work").
  ['still going to work', ''], ['still going into work', ''], ['still working', ''], ['still at work', ''],
  // "Feeling sick" is nausea; "being sick" (vomiting) is what an embedding took it for. The lexicon cannot say it: "feel" is a stopword there, and "sick for 3 days" is no nausea.
  ['feels sick', 'nauseous'], ['feeling sick', 'nauseous'], ['feel sick', 'nauseous'], ['felt sick', 'nauseous'], ['feeling very sick', 'very nauseous'], ['feels very sick', 'very nauseous'],
  // A letter's greeting ("Dear surgery", a British GP practice) is no surgery.
  ['dear surgery', ''], ['dear practice', ''], ['dear gp', ''], ['dear doctor', ''], ['dear doc', ''], ['hi doctor', ''], ['hi doc', ''],
  // Idioms an embedding took for other findings: hair falling out is no fall, bad breath no breathlessness, a pulse "all over the shop" is irregular.
  ['hair is falling out', 'hair loss'], ['hair falling out', 'hair loss'], ['hair is falling', 'hair loss'], ['hair falling', 'hair loss'], ['bad breath', 'halitosis'],
  ['pulse is all over the shop', 'irregular pulse'], ['pulse is all over the place', 'irregular pulse'], ['pulse all over the place', 'irregular pulse'], ['pulse all over the shop', 'irregular pulse'],
  ['heart is all over the place', 'irregular heartbeat'], ['heartbeat is all over the place', 'irregular heartbeat'],
  // "won't lie flat": cannot, not denies.
  ["won't lie flat", null], ['wont lie flat', null], ["won't lie down", null], ['wont lie down', null],
  // A treatment that fails ("puffers not touching it") is no denial of a finding.
  ['not touching it', ''], ["isn't touching it", ''], ['isnt touching it', ''], ["aren't touching it", ''], ['arent touching it', ''],
  ['no pmhx', ''], ['no psh', ''], ['no meds', ''], ['no medications', ''], ['no regular medications', ''], ['takes no medications', ''],
  ['no known drug allergies', ''], ['nkda', ''],
  ["haven't been able to", null], ['havent been able to', null], ['have not been able to', null], ["hasn't been able to", null],
  ['hasnt been able to', null], ['has not been able to', null], ["wasn't able to", null], ['wasnt able to', null], ['was not able to', null],
  ["weren't able to", null], ['not been able to', null], ["can't keep anything down", null], ["can't hold anything down", null],
  ["i'm not sure", ''], ['im not sure', ''], ['i am not sure', ''], ['not sure', ''], ["i don't know", ''], ['i dont know', ''],
  ['never been this', null], ['never felt this', null], ['never been so', null], ['never felt so', null],
  ['never had anything like this', ''], ['never had this before', ''], ['never had this', ''], ['never happened before', ''], ["won't stop", null], ['wont stop', null], ["doesn't stop", null], ["won't go away", null], ["doesn't go away", null],
  ['not going away', null], ['not go away', null], ['not stop', null], ['not stopping', null], ['does not stop', null], ['not getting better', null], ["isn't getting better", null], ["hasn't gone away", null], ["hasn't stopped", null],
  ["hasn't improved", null], ['never stops', null], ['no reason', null], ['no apparent reason', null], ['without warning', null],
  ["doesn't help", null], ["didn't help", null], ['not helping', null], ['nothing helps', null], ['did not help', null],
  ['does not help', null], ["isn't helping", null], ['isnt helping', null], ["hasn't helped", null], ["haven't helped", null],
  ["doesn't work", null], ["didn't work", null], ['not working', null], ['without it', null], ['without trying', null],
  ['without dieting', null], ['without meaning to', null], ['without reason', null], ['without any reason', null],
  ['no apetite', 'loss of appetite'], ['no appitite', 'loss of appetite'], ['not feeding well', 'poor feeding'], ['not feeding', 'poor feeding'], ['no obvious reason', null], ['not sleeping', null],
  ["don't fit", null], ['dont fit', null], ["doesn't fit", null], ['doesnt fit', null], ['do not fit', null],
  ["wasn't in my body", null], ['wasnt in my body', null], ['not in my body', null], ["wasn't real", null], ['not real', null],
  ["don't feel like myself", null], ['dont feel like myself', null], ['not myself', null], ["can't sleep", null], ['no sleep', null],
];

/**
 * "My smell is gone" is a loss, not a denial: "gone" after a faculty says it is lost, after a
 * symptom ("the pain is gone") that the symptom is. Each faculty's "<it> is gone" reads as its loss.
 */
const LOST_FACULTIES: readonly [string, string][] = [
  ['smell', 'loss of smell'], ['sense of smell', 'loss of smell'], ['taste', 'loss of taste'], ['sense of taste', 'loss of taste'],
  ['voice', 'loss of voice'], ['appetite', 'loss of appetite'], ['hearing', 'hearing loss'],
];
const GONE = ['is gone', 'has gone', "'s gone", 'gone', 'is completely gone', 'has completely gone', 'completely gone', 'is totally gone', 'has totally gone', 'went', 'has gone completely', 'is going'];
const LOST: [string, string][] = LOST_FACULTIES.flatMap(([f, loss]) => GONE.map((g): [string, string] => [g.startsWith("'") ? `${f}${g}` : `${f} ${g}`, loss]));

/** "The pain came back", "it pops back in": the adverb, not the body site (it read a back pain). */
const BACK_VERBS = ['come', 'comes', 'came', 'coming', 'go', 'goes', 'went', 'going', 'gone', 'pop', 'pops', 'popped', 'popping', 'get', 'gets', 'got', 'getting', 'push', 'pushes', 'pushed', 'bring', 'brings', 'brought', 'keeps coming', 'flared', 'flares'];
const ADVERB_BACK: [string, string][] = BACK_VERBS.map((v) => [`${v} back`, '']);
/** A lump that "pops back in when I lie down" is reducible, which says nothing of lying down (it had read as orthopnoea). */
const BACK_IN: [string, string][] = BACK_VERBS.flatMap((v) => ['', ' when i lie down', ' when lying down', ' lying down', ' when i lay down', ' on lying down'].map((tail): [string, string] => [`${v} back in${tail}`, '']));

/** "family history of", "family hx (of)" and "in my family" are relation phrases of the noun "family" (relation-cues.ts). */
const FAMILY_HEADS = [
  'family history', 'fam hx', 'fam hx of', 'fhx', 'fhx of', 'fh', 'fh of',
  'family history is significant for', 'family history significant for', 'family history positive for', 'family history is positive for',
];
const FAMILY_BWD = ['runs in the family', 'runs in my family', 'in the family'];

function defs(phrases: readonly string[], kind: CueKind, direction: CueDef['direction'], list: ListReach): CueDef[] {
  return phrases.map((p) => ({ tokens: p.split(' '), kind, direction, list, rewrite: null }));
}

/** Every cue but the relation phrases of relation-cues.ts (built there from heads and tails). */
const PLAIN_DEFS: readonly CueDef[] = [
  ...[...PSEUDO, ...LOST, ...BACK_IN, ...ADVERB_BACK].map(([p, rewrite]): CueDef => ({ tokens: p.split(' '), kind: 'pseudo', direction: 'forward', list: 'none', rewrite })),
  ...defs(NEG_STRONG, 'negated', 'forward', 'strong'),
  ...defs(NEG_WEAK, 'negated', 'forward', 'weak'),
  ...defs(NEG_AUX, 'negated', 'forward', 'none'),
  ...defs(NEG_BACKWARD, 'negated', 'backward', 'none'),
  ...defs(POSSIBLE_FWD, 'possible', 'forward', 'none'),
  ...defs(POSSIBLE_STRONG, 'possible', 'forward', 'strong'),
  ...defs(POSSIBLE_BWD, 'possible', 'backward', 'none'),
  ...defs(HYPOTHETICAL, 'hypothetical', 'forward', 'none'),
  ...defs(HISTORICAL_STRONG, 'historical', 'forward', 'strong'),
  ...defs(HISTORICAL_FWD, 'historical', 'forward', 'none'),
  ...defs(HISTORICAL_BWD, 'historical', 'backward', 'none'),
  ...defs(CURRENT, 'current', 'forward', 'none'),
  ...defs(POSITIVE, 'positive', 'forward', 'none'),
  ...defs(TERMINATE, 'terminate', 'forward', 'none'),
  ...defs(EXPOSURE, 'exposure', 'forward', 'none'),
  ...defs([...new Set([...HEADER, ...SHIPPED_HEADINGS])], 'header', 'forward', 'none'),
  ...defs(FRAME, 'frame', 'forward', 'none'),
  ...defs(FAMILY_HEADS, 'family', 'forward', 'strong'),
  ...defs(FAMILY_BWD, 'family', 'backward', 'none'),
];

/** What the matcher's trie is built from at import: the plain cues and the family nouns' anchors ("in my mother"). */
export const BASE_CUE_DEFS: readonly CueDef[] = [...PLAIN_DEFS, ...familyAnchorDefs()];

/**
 * Every cue definition written out, in the order the trie once took them (~55,500: the relation
 * phrases' product). Built on call: the oracle cue-trie.ts is tested against, not used to match.
 */
export function allCueDefs(): CueDef[] {
  return [...PLAIN_DEFS, ...relationDefs('family'), ...relationDefs('other')];
}

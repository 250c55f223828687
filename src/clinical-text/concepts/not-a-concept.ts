/**
 * Words of a note that are never an emergent concept (issue 47): a proper noun, and the words that
 * only say where a patient lives or was sent from. Real notes carry facility, town and people's
 * names the scrubber may miss ("seen at Barnabas", a town no cue introduced); repeated across one
 * hospital's notes of a disease, such a name passed the association test and became a diagnostic
 * concept. A capitalised word inside a sentence that is no English word and no eponym is taken
 * for a name; eponyms stay findings (Murphy's sign, Babinski, Charcot-Leyden), so do words at a
 * sentence or heading start ("Clear to auscultation") and abbreviations in capitals (CTAB, NAD, JVD).
 */
import rules from '../deidentify/identifier-rules.json' with { type: 'json' };
import { isRealWord } from './real-words.js';
import type { Token } from './normalize.js';

/** The eponyms the scrubber keeps (identifier-rules.json names.eponyms): one list for both steps. */
const EPONYMS: ReadonlySet<string> = new Set((rules as { names: { eponyms: string[] } }).names.eponyms);

/**
 * Words that only place the patient or the note ("Lives at [address]", "transferred from [facility]"):
 * with the identifier scrubbed, "lives" was left as the concept. Never a concept alone; in a pair
 * they may be ("lives alone").
 */
export const PLACES_THE_PATIENT: readonly string[] = [
  'lives', 'living', 'resides', 'residing', 'resident', 'works', 'employed', 'moved', 'relocated', 'transferred', 'transfer',
  'referred', 'visiting', 'originally', 'native', 'hometown', 'town', 'city', 'county', 'street', 'avenue', 'hospital', 'clinic',
  'facility', 'center', 'centre', 'dictated', 'transcribed', 'signed', 'cc',
];

const TITLE_CASE = /^[A-Z][a-z]+(?:['’-][A-Za-z]+)*$/;
/** What may stand before a word that starts a sentence, a line, a list item or a heading's value. */
const OPENS = /(?:^|[.:;!?(\-–•*#>|\n])$/;

/** The word as the eponym list holds it: lower case, no possessive; "Charcot-Leyden" is an eponym when any part is. */
function isEponym(word: string): boolean {
  const w = word.toLowerCase().replace(/['’]s?$/, '');
  return EPONYMS.has(w) || w.split('-').some((part) => EPONYMS.has(part));
}

/** True for a proper noun: a capitalised word inside a sentence that is no English word and no eponym. */
export function isProperNoun(text: string, token: Pick<Token, 'raw' | 'start'>): boolean {
  if (token.raw.length < 3 || !TITLE_CASE.test(token.raw)) return false;
  // Blanks are skipped (a scrubbed placeholder is blanked to spaces); a line break is an opener.
  if (OPENS.test(text.slice(0, token.start).replace(/[ \t]+$/, ''))) return false;
  if (isEponym(token.raw)) return false;
  return !isRealWord(token.raw.toLowerCase().replace(/['’]s$/, ''));
}

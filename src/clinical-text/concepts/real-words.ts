/**
 * Words spelled right on purpose, which the typo and sounds-like matching (find-mentions.ts) must
 * not "correct" into a vocabulary word: measured on the dev vignettes, most of its real-word
 * corrections were wrong ("bilat" read as bloated, "older" as welder, "couch" as cough,
 * "prostate" as prostrated, "hypotension" as hypertension), while misspellings ("feaver",
 * "swolen", "short of breth") are no English word and are still corrected.
 *
 * A word is real when Hunspell's en_US dictionary (dictionary-en, through nspell) spells it so,
 * or it is clinical shorthand or an apostrophe-less contraction of real-words.json; a few real
 * words written often for another ("hart" for heart) are read as that word only. And a
 * correction never crosses the prefixes that file lists as opposites.
 */
import nspell from 'nspell';
import dictionary from 'dictionary-en';
import data from './real-words.json' with { type: 'json' };

interface RealWordsFile {
  shorthand: string[];
  contractions: string[];
  contrastivePrefixes: [string, string][];
  /** A real word often written for another: it may be read as that one, and only as it. */
  confusables: Record<string, string>;
}

const file = data as unknown as RealWordsFile;
const listed = new Set([...file.shorthand, ...file.contractions]);
let speller: ReturnType<typeof nspell> | null = null;

/** True for a word a writer meant (lowercase): never a typo of another word. */
export function isRealWord(word: string): boolean {
  if (listed.has(word)) return true;
  // Built on first use (about 0.2 s), not at import: most processes never read text.
  speller ??= nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) });
  return speller.correct(word);
}

/** True when correcting `from` into `to` would swap prefixes of opposite meaning. */
export function crossesOpposites(from: string, to: string): boolean {
  return file.contrastivePrefixes.some(([a, b]) => (from.startsWith(a) && to.startsWith(b)) || (from.startsWith(b) && to.startsWith(a)));
}

/** True when two words share most of their spelling from the start (an inflection, "squeaking" / "squeaky"), at least 5 letters. */
export function inflectionOf(a: string, b: string): boolean {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k >= Math.max(5, 0.8 * Math.min(a.length, b.length));
}

/** The word a real word is often written for ("hart" → "heart"), if any (every such word is real). */
export function confusedFor(word: string): string | null {
  return Object.hasOwn(file.confusables, word) ? file.confusables[word]! : null;
}

import { doubleMetaphone } from 'double-metaphone';
import { editDistance } from './normalize.js';

/**
 * Phonetic typo matching for lay spelling the edit-distance rule cannot reach ("coff" → cough,
 * "horse" → hoarse, "diarea" → diarrhea, "swets" → sweats): same Double Metaphone code and
 * an edit distance within 40% of the word. Short words and codes stay out: too many real
 * words share them.
 */
export interface PhoneticIndex {
  byCode: Map<string, string[]>;
}

const codes = (word: string): string[] => [...new Set(doubleMetaphone(word))].filter((c) => c.length >= 2);

export function phoneticIndex(stems: Iterable<string>): PhoneticIndex {
  const byCode = new Map<string, string[]>();
  for (const s of stems) {
    if (s.length < 4 || /\d/.test(s)) continue;
    for (const c of codes(s)) byCode.set(c, [...(byCode.get(c) ?? []), s]);
  }
  return { byCode };
}

const VOWEL = /[aeiouy]/;

/** "rush"/"rash", "hat"/"hot": a short real word one vowel away is a different word, not a misspelling. */
function vowelSwap(a: string, b: string): boolean {
  if (a.length !== b.length || a.length > 5) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(VOWEL.test(a[i]!) && VOWEL.test(b[i]!))) return false;
  return true;
}

export function soundsLike(index: PhoneticIndex, word: string): string[] {
  if (word.length < 4 || /\d/.test(word)) return [];
  const budget = Math.max(2, Math.floor(word.length * 0.4));
  const out = new Set<string>();
  for (const c of codes(word)) {
    for (const s of index.byCode.get(c) ?? []) if (!vowelSwap(word, s) && editDistance(word, s, budget) <= budget) out.add(s);
  }
  return [...out];
}

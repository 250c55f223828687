import { doubleMetaphone } from 'double-metaphone';
import { editDistance } from './normalize.js';

/**
 * Phonetic typo matching for lay spelling the edit-distance rule cannot reach ("coff" → cough,
 * "horse" → hoarse, "diarea" → diarrhea, "swets" → sweats): same Double Metaphone code and
 * an edit distance within 40% of the word. Short words and codes stay out: too many real
 * words share them.
 */
export interface PhoneticIndex {
  /** Metaphone code → the vocabulary words with it, each with the stem it stands for. */
  byCode: Map<string, { word: string; stem: string }[]>;
}

const codes = (word: string): string[] => [...new Set(doubleMetaphone(word))].filter((c) => c.length >= 2);

/**
 * Words are the vocabulary's stems and, where stemming cut a word short ("tired" → "tir"), the
 * written word too, so "tierd" can sound like "tired".
 */
export function phoneticIndex(words: Iterable<string | { word: string; stem: string }>): PhoneticIndex {
  const byCode = new Map<string, { word: string; stem: string }[]>();
  const seen = new Set<string>();
  for (const w of words) {
    const e = typeof w === 'string' ? { word: w, stem: w } : w;
    const key = `${e.word}|${e.stem}`;
    if (e.word.length < 4 || /\d/.test(e.word) || seen.has(key)) continue;
    seen.add(key);
    // Appended in place: copying the list at each word was quadratic in a code's words.
    for (const c of codes(e.word)) {
      const list = byCode.get(c);
      if (list) list.push(e);
      else byCode.set(c, [e]);
    }
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

/** A misspelling rarely adds two letters: "caseat" (of "caseating") is no "cast". */
const muchShorter = (meant: string, written: string): boolean => meant.length < written.length - 1;

export function soundsLike(index: PhoneticIndex, word: string): string[] {
  if (word.length < 4 || /\d/.test(word)) return [];
  // Four letters leave little room: "grew" sounds like "crow" two edits away, and is a word.
  const budget = word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length * 0.4));
  const out = new Set<string>();
  for (const c of codes(word)) {
    for (const e of index.byCode.get(c) ?? []) if (!vowelSwap(word, e.word) && !muchShorter(e.word, word) && editDistance(word, e.word, budget) <= budget) out.add(e.stem);
  }
  return [...out];
}

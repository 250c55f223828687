/**
 * Facility and place candidates (issue 47): a pattern finds capitalised words before a facility
 * word ("St. Barnabas Hospital") or after a residence cue ("lives in Dayton"); these checks keep
 * what names no one place. "Community Hospital" and "Cardiology Clinic" are generic, "returned
 * from Mexico" is travel history (Safe Harbor keeps states and countries), "transferred from
 * Cardiology" names a service, "from Lyme disease" is a disease.
 */
import type { CompiledRules } from './compile-patterns.js';

export interface Span {
  start: number;
  end: number;
}

const WORD = /[^\s,]+/g;
/** A word as the place lists hold it: lower case, no trailing dot or comma. */
const bare = (w: string) => w.toLowerCase().replace(/[.,;:]+$/, '');

/** Null when every word of a facility name is generic ("Community Hospital", "the Wound Care Clinic"). */
export function refineFacility(text: string, hit: Span, rules: CompiledRules): Span | null {
  const words = [...text.slice(hit.start, hit.end).matchAll(WORD)].map((m) => bare(m[0]));
  return words.some((w) => !rules.genericPlaceWords.has(w)) ? hit : null;
}

/**
 * The town part of a place candidate: words up to the first that is no name ("lives in Dayton
 * With"), null when it is a kept place, a generic or clinical word, or a clinical noun follows.
 */
export function refineLocation(text: string, hit: Span, rules: CompiledRules): Span | null {
  const words = [...text.slice(hit.start, hit.end).matchAll(WORD)];
  let end = hit.start;
  for (const w of words) {
    const b = bare(w[0]);
    if (rules.notNames.has(b) || rules.genericPlaceWords.has(b)) break;
    end = hit.start + w.index + w[0].length;
  }
  if (end === hit.start) return null;
  const place = bare(text.slice(hit.start, end).replace(/\s+/g, ' '));
  const first = bare(words[0]![0]);
  if (rules.keptPlaces.has(place) || rules.keptPlaces.has(first) || rules.eponyms.has(first.replace(/['’]s?$/, ''))) return null;
  // A kept place longer than the words taken ("the Democratic Republic of the Congo" stops at "of").
  const ahead = text.slice(hit.start, hit.start + 60).toLowerCase().replace(/\s+/g, ' ');
  for (const kept of rules.keptPlaces) if (kept.length > place.length && ahead.startsWith(kept) && !/[a-z]/.test(ahead.charAt(kept.length))) return null;
  if (rules.clinicalNounAfter.test(text.slice(end, end + 40))) return null;
  return { start: hit.start, end };
}

/** The words of a facility name that identify it ("Barnabas" of "St. Barnabas Hospital"), to find it where it recurs alone. */
export function facilityCoreWords(name: string, rules: CompiledRules): string[] {
  return [...name.matchAll(WORD)]
    .map((m) => m[0].replace(/[.,;:]+$/, ''))
    .filter((w) => w.length >= 4 && /^[A-Z]/.test(w) && !rules.genericPlaceWords.has(w.toLowerCase()) && !rules.eponyms.has(w.toLowerCase()) && !rules.notNames.has(w.toLowerCase()));
}

/**
 * The vocabulary stems a text token can stand for (find-mentions.ts's fuzzy step): the token's own
 * stem, stems within its typo budget (edit distance, a letter-bag bound first, never across
 * opposite prefixes or onto a real word it is not a typo of), or stems that sound like it.
 * Per-index lookup structures are built once and cached beside the index.
 */
import type { ConceptIndex } from './concept-index.js';
import { editDistance, stem, tokenize, typoBudget, type Token } from './normalize.js';
import { confusedFor, crossesOpposites, inflectionOf, isRealWord } from './real-words.js';
import { phoneticIndex, soundsLike, type PhoneticIndex } from './sounds-like.js';

const TYPO = 0.9;
const SOUNDS_LIKE = 0.85;

export interface Candidate {
  stem: string;
  penalty: number;
}

const fuzzyCache = new WeakMap<ConceptIndex, Map<string, Candidate[]>>();

/** The vocabulary stems a text token can stand for: itself, or stems within its typo budget. */
export function candidates(index: ConceptIndex, token: Token): Candidate[] {
  if (index.byStem.has(token.stem)) return [{ stem: token.stem, penalty: 1 }];
  if (!index.fuzzy || index.laterTierStems.has(token.stem)) return [];
  // The budget follows the stem's length, and the first letter must agree: typos rarely
  // hit it, and without that rule "crushing" was one stem edit from "cough".
  // A plural's "s" counts towards the length ("pouds" is a 5-letter word with one typo of "pounds").
  const budget = typoBudget(token.norm === `${token.stem}s` ? token.norm : token.stem);
  if (/\d/.test(token.norm) || token.stem.length < 4) return [];
  const memo = fuzzyCache.get(index) ?? new Map<string, Candidate[]>();
  fuzzyCache.set(index, memo);
  const hit = memo.get(token.norm);
  if (hit) return hit;
  // A real word written often for another ("hart") is read as that one only (real-words.ts).
  const meant = confusedFor(token.norm);
  if (meant !== null) {
    const s = stem(meant);
    const found = index.byStem.has(s) ? [{ stem: s, penalty: TYPO }] : [];
    memo.set(token.norm, found);
    return found;
  }
  let found = withinBudget(index, token, budget);
  // Spelled as it sounds ("coff", "diarea"): a phonetic match, a little less sure than one edit.
  if (found.length === 0) {
    const p = phoneticFor(index);
    found = [...new Set([...soundsLike(p.stems, token.stem), ...soundsLike(p.written, token.norm)])].map((stem) => ({ stem, penalty: SOUNDS_LIKE }));
  }
  // A word spelled right was meant ("older", "couch", "prostate"): read only as a vocabulary word
  // it inflects ("squeaking" → "squeaky"), never by sound. Asked only when there is a candidate:
  // the dictionary costs a few hundred ms to load, and most words never need it.
  if (found.length > 0 && isRealWord(token.norm)) found = withinBudget(index, token, budget, (s) => inflectionOf(token.stem, s));
  if (memo.size > 50_000) memo.clear();
  memo.set(token.norm, found);
  return found;
}

/** Vocabulary stems within the typo budget, at the least distance, of the same first letter and never across opposite prefixes. */
export function withinBudget(index: ConceptIndex, token: Token, budget: number, keep?: (s: string) => boolean): Candidate[] {
  let best = budget + 1;
  let found: Candidate[] = [];
  const bucket = budget === 0 ? undefined : byInitial(index).get(token.stem[0]!);
  const n = token.stem.length;
  const letters = letterCounts(token.stem);
  for (const s of bucket ?? []) {
    // editDistance's own first test, made before the call: most stems of the letter are too long or short.
    if (Math.abs(s.length - n) > budget) continue;
    if (letters && bagDistance(letters, n, s) > budget) continue;
    const d = editDistance(token.stem, s, budget);
    if (d > budget || d > best || crossesOpposites(token.stem, s) || (keep && !keep(s))) continue;
    if (d < best) found = [];
    best = d;
    found.push({ stem: s, penalty: TYPO });
  }
  return found;
}

/**
 * Bag distance: the letters one word has beyond the other's, the larger side. Every edit (insert,
 * delete, substitute, swap) changes it by at most one, so it never exceeds the edit distance: a stem
 * it puts over the budget is over it, without the distance table. `counts` holds the word's letters
 * (ASCII); null for a word with others (no shortcut).
 */
function letterCounts(word: string): Int16Array | null {
  const counts = new Int16Array(128);
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return null;
    counts[c]!++;
  }
  return counts;
}

function bagDistance(counts: Int16Array, length: number, s: string): number {
  left.set(counts);
  let shared = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && left[c]! > 0) {
      left[c]!--;
      shared++;
    }
  }
  return Math.max(length - shared, s.length - shared);
}
/** The word's letters not yet matched, refilled per stem compared. */
const left = new Int16Array(128);

/**
 * The index's stems of four letters or more by first letter, each list in the index's order: the
 * stems a typo may have meant (its first letter must agree), met in the order a scan of every stem
 * meets them, so ties keep the same first stem. Built once per index.
 */
const initials = new WeakMap<ConceptIndex, Map<string, string[]>>();
function byInitial(index: ConceptIndex): Map<string, string[]> {
  let m = initials.get(index);
  if (!m) {
    m = new Map();
    for (const s of index.byStem.keys()) {
      if (s.length < 4) continue;
      const list = m.get(s[0]!);
      if (list) list.push(s);
      else m.set(s[0]!, [s]);
    }
    initials.set(index, m);
  }
  return m;
}

/**
 * Two lookups: stems against stems, and written words against the written words that stemming cut
 * short ("tierd" → "tired", whose stem "tir" is too short to index). A written word is not heard
 * against a stem: "since" sounds like the stem "sinus".
 */
interface Phonetic {
  stems: PhoneticIndex;
  written: PhoneticIndex;
}
const phonetic = new WeakMap<ConceptIndex, Phonetic>();
/** The lookup's own structure over the index's vocabulary (start-up, by prepareConcepts). */
export function phoneticFor(index: ConceptIndex): Phonetic {
  let p = phonetic.get(index);
  if (!p) {
    const written: { word: string; stem: string }[] = [];
    for (const e of index.entries) if (!e.raw) for (const t of tokenize(e.form)) if (t.norm !== t.stem && index.byStem.has(t.stem)) written.push({ word: t.norm, stem: t.stem });
    p = { stems: phoneticIndex(index.byStem.keys()), written: phoneticIndex(written) };
    phonetic.set(index, p);
  }
  return p;
}

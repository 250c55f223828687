import { featureFor, type ConceptIndex, type FormEntry } from './concept-index.js';
import { namesRelative } from './family-forms.js';
import { contentTokens, editDistance, stem, tokenize, typoBudget, type Token } from './normalize.js';
import { confusedFor, crossesOpposites, inflectionOf, isRealWord } from './real-words.js';
import { phoneticIndex, soundsLike, type PhoneticIndex } from './sounds-like.js';
import { isSideWord } from './side-words.js';
import { withoutNotThisConcept } from './not-this-concept.js';

/**
 * Dictionary lookup of concept mentions in one finding (a QuickUMLS-style longest-match
 * tagger over stems): every lexicon form whose stems all occur in the finding, in order and
 * adjacent (score 1) or within a short window in any order ("pain in my chest" for "chest
 * pain", 0.9); a typo costs 0.9 per word. A mention inside a longer mention of the same
 * family is dropped ("former smoker" beats "smoker"), so the most specific concept wins.
 */
export interface Mention {
  entry: FormEntry;
  /** Token positions (in the finding's full token list) the mention covers. */
  at: number[];
  score: number;
  /** Why it matched, for the trace: the form and any typo correction. */
  via: string;
}

const ORDERED = 1;
const UNORDERED = 0.9;
const TYPO = 0.9;
const SOUNDS_LIKE = 0.85;
const WINDOW_SLACK = 3;

interface Candidate {
  stem: string;
  penalty: number;
}

const fuzzyCache = new WeakMap<ConceptIndex, Map<string, Candidate[]>>();

/** The vocabulary stems a text token can stand for: itself, or stems within its typo budget. */
function candidates(index: ConceptIndex, token: Token): Candidate[] {
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

/** Prepositions and conjunctions that a one-word form may match only as themselves (a trigger "into"), never by stem. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(['into', 'onto', 'upon', 'unto', 'within', 'without', 'through', 'towards', 'toward', 'than', 'then', 'when', 'while', 'where', 'which', 'whose', 'because', 'since', 'until', 'though', 'although']);

function matchEntry(entry: FormEntry, slots: { at: number; cands: Candidate[]; raw: string }[]): { at: number[]; score: number; typo: boolean } | null {
  if (entry.raw) {
    // Case-sensitive abbreviation: consecutive raw tokens equal to the form's.
    for (let i = 0; i + entry.raw.length <= slots.length; i++) {
      if (entry.raw.every((r, k) => slots[i + k]!.raw === r)) return { at: entry.raw.map((_, k) => slots[i + k]!.at), score: ORDERED, typo: false };
    }
    return null;
  }
  const positions: number[] = [];
  let penalty = 1;
  let from = 0;
  let ordered = true;
  for (const s of entry.stems) {
    let found = -1;
    // Prefer the next slot after the previous match (in order), else any unused slot.
    for (let i = from; i < slots.length && found < 0; i++) if (slots[i]!.cands.some((c) => c.stem === s)) found = i;
    if (found < 0) {
      ordered = false;
      for (let i = 0; i < slots.length && found < 0; i++) if (!positions.includes(i) && slots[i]!.cands.some((c) => c.stem === s)) found = i;
    }
    if (found < 0) return null;
    if (positions.length > 0 && found !== positions[positions.length - 1]! + 1) ordered = false;
    penalty *= slots[found]!.cands.find((c) => c.stem === s)!.penalty;
    positions.push(found);
    from = found + 1;
  }
  // A function word is no concept by itself, whatever it stems to: "fell into the pool" names no HPO "Intoeing".
  const only = positions.length === 1 ? slots[positions[0]!]!.raw.toLowerCase() : null;
  if (only !== null && FUNCTION_WORDS.has(only) && entry.form.toLowerCase() !== only) return null;
  const spread = Math.max(...positions) - Math.min(...positions) + 1;
  if (!ordered && spread > entry.stems.length + WINDOW_SLACK) return null;
  // A body site is written as one phrase: "upper stomach that bores into my back" names no upper back.
  // So is a lexical negative: "breath sounds ok" is an exam finding, not "breathing ok".
  // A side word inside it is the site's side, not another word: "lower left abdomen" is the lower abdomen, on the left.
  const onePhrase = spread === positions.length || (entry.target.kind === 'site' && onlySidesBetween(slots, positions));
  if ((entry.target.kind === 'site' || entry.target.kind === 'absent') && !onePhrase) return null;
  // Reversed words may not straddle another word: "pain in my chest" is chest pain, "pain
  // relieved by rest" is no rest pain.
  const reversed = positions.some((p, i) => i > 0 && p < positions[i - 1]!);
  if (reversed && spread > positions.length) return null;
  return { at: positions.map((p) => slots[p]!.at), score: (ordered ? ORDERED : UNORDERED) * penalty, typo: penalty < 1 };
}

/** Whether the only words between a mention's words are side words (side-words.ts). */
function onlySidesBetween(slots: readonly { raw: string }[], positions: readonly number[]): boolean {
  for (let i = Math.min(...positions) + 1; i < Math.max(...positions); i++) if (!positions.includes(i) && !isSideWord(slots[i]!.raw.toLowerCase())) return false;
  return true;
}

/**
 * Which mentions compete for "longest wins": modifiers (triggers, sites, values) never hide concepts.
 * A body site inside a longer value mention is that value's site ("stomach" of "stomach cramps" is
 * the belly the cramps name, not also the epigastrium).
 */
const family = (m: Mention): string => {
  const k = m.entry.target.kind;
  return k === 'evidence' || k === 'feature' || k === 'absent' ? 'concept' : k === 'site' ? 'value' : k;
};

/** A concept mention that cannot become a feature (a 0-10 question's name, a code the KG lacks) must not hide one that can. */
function resolvable(index: ConceptIndex, m: Mention): boolean {
  const t = m.entry.target;
  if (t.kind === 'evidence' || t.kind === 'absent') return featureFor(index, t.code, null) !== undefined;
  if (t.kind === 'value') return featureFor(index, t.code, t.valueCode) !== undefined;
  return true;
}

/** Who a finding is about: family-history cores count only for a relative (of the right class). */
export interface MentionScope {
  family: boolean;
  /** The finding's text and cue, where the relative is named. */
  said: string;
}

const inScope = (entry: FormEntry, scope: MentionScope | undefined): boolean =>
  !entry.familyOnly || (scope !== undefined && scope.family && (entry.familyOnly.relative === null || namesRelative(entry.familyOnly.relative, scope.said)));

export function findMentions(index: ConceptIndex, tokens: readonly Token[], scope?: MentionScope): Mention[] {
  const slots = contentTokens(tokens).map(({ token, at }) => ({ at, raw: token.raw, cands: candidates(index, token) }));
  const found: Mention[] = [];
  for (const e of candidateEntries(index, slots)) {
    const entry = index.entries[e]!;
    if (!inScope(entry, scope)) continue;
    const m = matchEntry(entry, slots);
    if (!m) continue;
    const mention = { entry, at: m.at, score: m.score, via: `${m.typo ? 'typo-tolerant ' : ''}form "${entry.form}"` };
    if (resolvable(index, mention)) found.push(mention);
  }
  // Abbreviations index by stem too, so they were tried above; keep the best per target.
  found.sort((a, b) => b.at.length - a.at.length || b.score - a.score);
  const kept: Mention[] = [];
  for (const m of found) {
    const duplicate = kept.some((k) => targetKey(k) === targetKey(m));
    // Only an equally tight match hides a shorter one: words found out of order do not beat an exact phrase.
    const dominated = !duplicate && kept.some((k) => family(k) === family(m) && k.at.length > m.at.length && k.score >= m.score && m.at.every((p) => k.at.includes(p)));
    if (!dominated && !duplicate) kept.push(m);
  }
  // A lexical negative denies its concept wherever their words meet: "cough, non productive" is no productive cough.
  const denied = kept.filter((m) => m.entry.target.kind === 'absent');
  const read = kept.filter((m) => m.entry.target.kind !== 'evidence' || !denied.some((d) => targetCode(d) === targetCode(m) && d.at.some((p) => m.at.includes(p))));
  // "jugular venous distension" is no abdominal distension, "ST depression" no depression (not-this-concept.ts).
  return withoutNotThisConcept(tokens, read);
}

/**
 * The entries whose every stem is among the finding's candidate stems (only those can match),
 * found by their rarest stem (ConceptIndex.byAnchor), in the order a scan of the slots would
 * meet them (first slot and candidate holding one of their stems, then entry order): ties later
 * keep the first, so the order is part of the result.
 */
function candidateEntries(index: ConceptIndex, slots: readonly { cands: Candidate[] }[]): number[] {
  const first = new Map<string, number>();
  let n = 0;
  for (const slot of slots) for (const c of slot.cands) if (!first.has(c.stem)) first.set(c.stem, n++);
  const out: { e: number; at: number }[] = [];
  for (const stem of first.keys()) {
    for (const e of index.byAnchor.get(stem) ?? []) {
      const stems = index.entries[e]!.stems;
      let at = Infinity;
      let all = true;
      for (const s of stems) {
        const p = first.get(s);
        if (p === undefined) {
          all = false;
          break;
        }
        if (p < at) at = p;
      }
      if (all) out.push({ e, at });
    }
  }
  return out.sort((a, b) => a.at - b.at || a.e - b.e).map((x) => x.e);
}

const targetCode = (m: Mention): string | null => ('code' in m.entry.target ? m.entry.target.code : null);

export function targetKey(m: Mention): string {
  const t = m.entry.target;
  switch (t.kind) {
    case 'evidence':
    case 'absent':
    case 'trigger':
      return `${t.kind}:${t.code}`;
    case 'value':
      return `value:${t.code}:${t.valueCode}`;
    case 'site':
      return `site:${t.valueCode}`;
    case 'feature':
      return `feature:${t.feature}`;
  }
}


import { featureFor, type ConceptIndex, type FormEntry } from './concept-index.js';
import { namesRelative } from './family-forms.js';
import { contentTokens, stem, type Token } from './normalize.js';
import { candidates, type Candidate } from './token-candidates.js';
import { isSideWord } from './side-words.js';
import { withoutNotThisConcept } from './not-this-concept.js';
import { listGapped } from './list-gap.js';

// The fuzzy lookup's exports, where callers have always found them.
export { phoneticFor, withinBudget } from './token-candidates.js';

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

const LEADING_PREPOSITIONS: ReadonlySet<string> = new Set(['during', 'at', 'in', 'on', 'after', 'before', 'with', 'without', 'when', 'while', 'since', 'until', 'over', 'under', 'from']);

const ORDERED = 1;
const UNORDERED = 0.9;
const WINDOW_SLACK = 3;

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
  // A preposition governs what follows it: "night during" ("last night during a coughing fit") is no "during the night".
  if (reversed && LEADING_PREPOSITIONS.has(entry.form.split(' ')[0]!.toLowerCase())) return null;
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
  const gapped = found.filter((k) => listGapped(tokens, k.at));
  for (const m of found) {
    const duplicate = kept.some((k) => targetKey(k) === targetKey(m));
    // Only an equally tight match hides a shorter one: words found out of order do not beat an exact phrase.
    // A phrase read across a list hides it too, even as another form of a concept already kept (listGapped).
    const covers = (k: Mention) => family(k) === family(m) && k.at.length > m.at.length && m.at.every((p) => k.at.includes(p));
    const dominated = !duplicate && (kept.some((k) => covers(k) && k.score >= m.score) || gapped.some(covers));
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


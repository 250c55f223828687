import type { CueHit } from './cues.js';
import { isWord, queriesAbbreviation, type Token } from './segment.js';
import { ADJECTIVES, BODY, FIXED_PAIRS, LEADING_FILLER, MODIFIER_ADJECTIVES, MODIFIER_SKIP, MODIFIER_START, TRIGGER_ACTIONS, WITH_KEEP, opensWithSubject } from './words.js';

/** Words inside a describing phrase: "worse when I take a deep breath or lie down" stays one modifier. */
const IN_MODIFIER = new Set(['when', 'whenever', 'while', 'after', 'before', 'during', 'worse', 'better', 'relieved', 'aggravated', 'if']);

/**
 * Clauses and atomic findings of one sentence. Segments end at commas, colons, dashes and
 * termination cues ("but", "however"); atoms split a segment at list joiners ("and", "or",
 * "with") and at a negation cue that follows a finding ("cough without sputum").
 * Token indices refer to the sentence's token array.
 */
export interface Segment {
  from: number;
  to: number;
  /** Opened by a termination cue ("but", "although"): every forward scope ends here. */
  terminated: boolean;
  /** Describes the preceding finding ("worse when breathing in", "radiating to L arm"). */
  modifier: boolean;
}

export interface Atom {
  seg: number;
  from: number;
  to: number;
  /** The joiner before it inside its segment ("and", "or", "with"), null for the first atom or a cue split. */
  joiner: string | null;
}

/** Reporting phrases that start a new finding even after other words ("retired mechanic presents with ..."). */
const REPORTING = new Set(['presents with', 'presenting with', 'comes in with', 'came in with', 'complains of', 'complaining of', 'c/o', 'reports', 'endorses']);
const JOINERS = new Set(['and', 'or', 'nor', '&', '+', '/', 'plus', 'with', 'w/', 'and/or', 'vs', 'versus']);
const MULTI_JOINERS: string[][] = [['as', 'well', 'as'], ['along', 'with'], ['associated', 'with'], ['accompanied', 'by'], ['together', 'with'], ['and', 'also']];
const BOUNDARY = new Set([',', ':', '-']);

/** The cue hit covering each token, if any. */
export function cueIndex(hits: readonly CueHit[], n: number): (CueHit | undefined)[] {
  const at: (CueHit | undefined)[] = new Array(n);
  for (const h of hits) for (let k = h.i; k < h.j; k++) at[k] = h;
  return at;
}

const kindAt = (at: (CueHit | undefined)[], k: number) => at[k]?.defs[0]?.kind;

export function segmentsOf(tokens: readonly Token[], at: (CueHit | undefined)[]): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  let terminated = false;
  const close = (to: number) => {
    // The first segment has nothing to describe: it is a head even when it opens with "worse".
    if (tokens.slice(from, to).some(isWord)) out.push({ from, to, terminated, modifier: out.length > 0 && isModifier(tokens, at, from, to) });
  };
  for (let k = 0; k < tokens.length; k++) {
    const hit = at[k];
    if (BOUNDARY.has(tokens[k]!.norm) && !(tokens[k]!.norm === ',' && continuesActions(tokens, at, from, k))) {
      close(k);
      from = k + 1;
      terminated = false;
    } else if (hit && hit.i === k && hit.defs.some((d) => d.kind === 'terminate') && k > from) {
      close(k);
      from = k;
      terminated = true;
    } else if (hit && hit.i === k && hit.defs.some((d) => d.kind === 'terminate')) terminated = true;
  }
  close(tokens.length);
  return out;
}

/**
 * "worse when I cough, sneeze or laugh", "pain on coughing, sneezing, or straining": the words after
 * the comma are more of the modifier's actions, not findings of their own (a sneeze that brings the
 * pain on is no nasal symptom). True when the clause before the comma is a modifier ending in an
 * action and the rest of the list is actions, joiners and the patient's "I", read as a list: joined
 * ("sneeze or laugh") or two at least ("sitting, coughing, sneezing"). One bare word after the comma
 * is a finding of its own: "SOB worse on exertion, cough", "pain on swallowing, cough".
 */
function continuesActions(tokens: readonly Token[], at: (CueHit | undefined)[], from: number, comma: number): boolean {
  const before = tokens.slice(from, comma).filter(isWord);
  const last = before[before.length - 1];
  if (!last || !TRIGGER_ACTIONS.has(last.norm) || !before.some((t) => IN_MODIFIER.has(t.norm) || MODIFIER_START.has(t.norm))) return false;
  let actions = 0;
  let joined = false;
  for (let k = comma + 1; k < tokens.length && (tokens[k]!.norm === ',' || !BOUNDARY.has(tokens[k]!.norm)); k++) {
    const t = tokens[k]!;
    if (JOINERS.has(t.norm)) joined = true;
    if (!isWord(t) || JOINERS.has(t.norm) || t.norm === 'i' || t.norm === 'when') continue;
    if (at[k] !== undefined || !TRIGGER_ACTIONS.has(t.norm)) return false;
    actions++;
  }
  return actions >= 1 && actions <= 4 && (joined || actions >= 2);
}

function isModifier(tokens: readonly Token[], at: (CueHit | undefined)[], from: number, to: number): boolean {
  const words: Token[] = [];
  for (let k = from; k < to; k++) {
    const t = tokens[k]!;
    const kind = kindAt(at, k);
    if (MODIFIER_SKIP.has(t.norm) || !isWord(t) || kind === 'negated' || kind === 'pseudo' || kind === 'terminate') continue;
    words.push(t);
  }
  if (words.length === 0) return false;
  if (MODIFIER_START.has(words[0]!.norm)) return true;
  return words.length <= 3 && words.every((t) => MODIFIER_ADJECTIVES.has(t.norm));
}

const INABILITY = /^(?:can't|cant|cannot|unable|able|couldn't|couldnt)$/;

/** Cue words that stay in the finding's text: "can't catch my breath", "sick contacts". */
const KEPT_CUES = new Set(['pseudo', 'exposure']);

/** Words of a finding (pseudo-negations like "can't catch my breath" are findings too). */
const content = (tokens: readonly Token[], at: (CueHit | undefined)[], from: number, to: number) =>
  tokens.slice(from, to).filter((t, k) => isWord(t) && !LEADING_FILLER.has(t.norm) && (at[from + k] === undefined || KEPT_CUES.has(at[from + k]!.defs[0]!.kind)));

const MULTI_FIRST = new Set(MULTI_JOINERS.map((mj) => mj[0]!));

function multiJoiner(tokens: readonly Token[], k: number): number {
  if (!MULTI_FIRST.has(tokens[k]!.norm)) return 0;
  for (const mj of MULTI_JOINERS) if (mj.every((w, d) => tokens[k + d]?.norm === w)) return mj.length;
  return 0;
}

/** Split one segment into atoms at joiners, mid-clause negation/hypothetical cues and reporting phrases. */
export function atomsOf(tokens: readonly Token[], at: (CueHit | undefined)[], seg: Segment, segIndex: number): Atom[] {
  const out: Atom[] = [];
  let from = seg.from;
  let joiner: string | null = null;
  let exposure = false;
  // "?PTX sudden pleuritic CP": the atom ends after the queried abbreviation (segment.ts).
  let queried = -1;
  for (let k = seg.from; k < seg.to; k++) {
    const t = tokens[k]!;
    const hit = at[k];
    if (k === queried && k > from && k < seg.to) {
      out.push({ seg: segIndex, from, to: k, joiner });
      joiner = null;
      from = k;
    }
    if (hit?.i === k && queriesAbbreviation(tokens, k)) queried = k + 2;
    if (hit?.i === k && hit.defs.some((d) => d.kind === 'exposure')) exposure = true;
    const insideCue = hit !== undefined && hit.i < k; // the "with" of "presents with" joins nothing
    const width = insideCue ? 0 : multiJoiner(tokens, k) || (JOINERS.has(t.norm) ? 1 : 0);
    const negCue =
      hit?.i === k && !JOINERS.has(t.norm) && hit.defs.some((d) => ((d.kind === 'negated' || d.kind === 'hypothetical') && d.direction === 'forward') || REPORTING.has(d.tokens.join(' ')));
    if (width === 0 && !negCue) continue;
    const left = content(tokens, at, from, k);
    const rightEnd = nextJoiner(tokens, negCue ? hit!.j : k + Math.max(width, 1), seg.to);
    const right = tokens.slice(negCue ? hit!.j : k + width, rightEnd).filter(isWord);
    if (left.length === 0 || right.length === 0) continue;
    // "can't walk without pain": the pain is there; "without" after an inability is no negation.
    if (negCue && (t.norm === 'without' || t.norm === 'w/o') && left.some((x) => INABILITY.test(x.norm))) continue;
    const subjectNext = opensWithSubject(right);
    // "contact with someone who had a cough and fever" is one exposure; "sick contacts or new medications" is a list.
    if (exposure && !subjectNext && !left.every((t) => at[tokens.indexOf(t)]?.defs.some((d) => d.kind === 'exposure'))) continue;
    if (width > 0 && !negCue && !subjectNext && keepTogether(tokens, k, width, left, right, seg, tokens.slice(from, k).filter((_, d) => at[from + d] === undefined))) continue;
    out.push({ seg: segIndex, from, to: k, joiner });
    joiner = width > 0 ? tokens.slice(k, k + width).map((x) => x.norm).join(' ') : null;
    from = negCue ? k : k + width;
    if (width > 1) k += width - 1;
    exposure = false;
  }
  out.push({ seg: segIndex, from, to: seg.to, joiner });
  return out;
}

const NEW_PHRASE = new Set(['a', 'an', 'some', 'any', 'the', 'no', 'then', 'this', 'now', 'also', 'later']);

/** "pain that gets worse when I take a deep breath": a describing word after the finding's first words. */
function insideModifier(before: Token[]): boolean {
  const at = before.findIndex((t) => IN_MODIFIER.has(t.norm));
  return at > 0 && before.slice(0, at).some((t) => isWord(t) && !LEADING_FILLER.has(t.norm));
}

function nextJoiner(tokens: readonly Token[], from: number, to: number): number {
  for (let k = from; k < to; k++) if (JOINERS.has(tokens[k]!.norm) || multiJoiner(tokens, k) > 0) return k;
  return to;
}

function keepTogether(tokens: readonly Token[], k: number, width: number, left: Token[], right: Token[], seg: Segment, before: Token[]): boolean {
  const j = tokens[k]!.norm;
  const prev = tokens[k - 1]?.norm ?? '';
  const next = tokens[k + width]?.norm ?? '';
  if (FIXED_PAIRS.has(`${prev}|${next}`)) return true;
  if (j === 'with' || j === 'w/') return seg.modifier || WITH_KEEP.has(prev);
  if (width > 1) return false;
  // Inside a modifier ("worse w/ coughing and lifting", "when I sit up and lean forward") only another modifier splits.
  if (seg.modifier || insideModifier(before)) {
    const opensNew = MODIFIER_START.has(right[0]!.norm) || NEW_PHRASE.has(right[0]!.norm);
    if (!opensNew && (seg.modifier || right.length <= 4)) return true;
  }
  // "lip and tongue swelling", "my face and lips are swollen": body sites before the joiner share the finding after it.
  if (left.length <= 2 && left.every((t) => BODY.has(t.norm)) && right.length > 1) return true;
  // "flushed and red", "sore and swollen": one describing word after the joiner describes the same thing.
  if (j === 'and' && right.length === 1 && ADJECTIVES.has(right[0]!.norm)) return true;
  // "sharp and stabbing pain": only describing words before the joiner, the head after it.
  if (left.length <= 2 && left.every((t) => ADJECTIVES.has(t.norm)) && right.length > left.length) return true;
  // "pain in the left arm and jaw": only body sites after the joiner.
  if (right.every((t) => BODY.has(t.norm) || t.raw === 'R' || t.raw === 'L')) return true;
  return false;
}

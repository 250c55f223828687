import type { Atom, Segment } from './atoms.js';
import type { CueDef, CueKind, ListReach } from './cue-lexicon.js';
import type { CueHit } from './cues.js';
import { isWord, type Token } from './segment.js';
import { ACUTE, LEADING_FILLER, NOT_BARE, SUBJECTS, TRAILING_FILLER } from './words.js';

/**
 * The rules a scope follows: how far a cue reaches over a comma list (NegEx's window,
 * made list-aware) and whether a cue looks forward or backward from its place in an atom.
 */
export interface Scope {
  cue: string;
  kind: CueKind;
  list: ListReach;
  seg: number;
}

export interface ScopeInput {
  text: string;
  tokens: readonly Token[];
  at: (CueHit | undefined)[];
  segments: readonly Segment[];
  atoms: readonly Atom[];
  /** Segments that hold a value (duration, intensity, temperature): no bare list item. */
  segmentHasValue: (seg: number) => boolean;
}

const VERBS = new Set('is are was were am has have had feel feels felt get gets got hurts hurt hurting keeps kept started began been seems seem went goes came comes think thought took take noticed'.split(' '));
const LIST_CLOSERS = new Set(['and', 'or', 'nor']);
const REACH: Record<ListReach, number> = { strong: 2, weak: 1, none: 0 };


/** A list item: a short noun phrase with no cue, subject, verb, value or "normal"-type word. */
function bare(input: ScopeInput, s: number): boolean {
  const seg = input.segments[s]!;
  if (seg.modifier || seg.terminated || input.segmentHasValue(s)) return false;
  for (let k = seg.from; k < seg.to; k++) if (input.at[k]?.defs.some((d) => d.kind !== 'exposure')) return false;
  const words = input.tokens.slice(seg.from, seg.to).filter(isWord);
  const first = words.find((t) => !LIST_CLOSERS.has(t.norm));
  if (!first || SUBJECTS.has(first.norm)) return false;
  const contentWords = words.filter((t) => !LEADING_FILLER.has(t.norm));
  return contentWords.length >= 1 && contentWords.length <= 4 && !words.some((t) => VERBS.has(t.norm) || NOT_BARE.has(t.norm));
}

/**
 * Past problems and relatives' problems are listed tersely: "h/o CHF, acute severe dyspnea" ends
 * the history list. Under a heading ("FHx: mother MI at 50") the entries may run longer.
 */
function pastListItem(input: ScopeInput, s: number, underHeading: boolean, family: boolean): boolean {
  const seg = input.segments[s]!;
  const words = input.tokens.slice(seg.from, seg.to).filter((t) => isWord(t) && !LEADING_FILLER.has(t.norm));
  // Under a family-history heading "sudden" and "early" are the relatives' history ("FHx: sudden cardiac death").
  return (underHeading || words.length <= 3) && ((underHeading && family) || !words.some((t) => ACUTE.has(t.norm)));
}

/** A segment that is nothing but its cue: a heading such as "FHx:" or "PMH:". */
function headingOnly(input: ScopeInput, s: number): boolean {
  const seg = input.segments[s]!;
  for (let k = seg.from; k < seg.to; k++) if (isWord(input.tokens[k]!) && input.at[k] === undefined) return false;
  return true;
}

interface ListFacts {
  bare: boolean[];
  /** Every segment from s to the sentence end is bare. */
  bareToEnd: boolean[];
  /** The run of bare segments from s holds one opened by and/or/nor. */
  closerAhead: boolean[];
}
const FACTS = new WeakMap<ScopeInput, ListFacts>();

/** Computed once per sentence, from the end, so long lists stay linear. */
function listFacts(input: ScopeInput): ListFacts {
  const known = FACTS.get(input);
  if (known) return known;
  const n = input.segments.length;
  const facts: ListFacts = { bare: new Array(n), bareToEnd: new Array(n), closerAhead: new Array(n) };
  for (let s = n - 1; s >= 0; s--) {
    const b = bare(input, s);
    facts.bare[s] = b;
    facts.bareToEnd[s] = b && (s === n - 1 || facts.bareToEnd[s + 1]!);
    facts.closerAhead[s] = b && (LIST_CLOSERS.has(input.tokens[input.segments[s]!.from]!.norm) || (s < n - 1 && facts.closerAhead[s + 1]!));
  }
  FACTS.set(input, facts);
  return facts;
}

/** Does a scope opened in an earlier comma segment cover segment s? */
export function listContinues(input: ScopeInput, scope: Scope, s: number): boolean {
  const facts = listFacts(input);
  if (!facts.bare[s]) return false;
  if ((scope.kind === 'historical' || scope.kind === 'family' || scope.kind === 'other') && !pastListItem(input, s, headingOnly(input, scope.seg), scope.kind === 'family')) return false;
  if (scope.list === 'strong') return true;
  return scope.list === 'weak' ? facts.bareToEnd[s]! : facts.closerAhead[s]!;
}

const THIS_OR_LAST = new Set(['this', 'last']);
const PERIOD = new Set(['year', 'season', 'winter', 'autumn', 'fall', 'time', 'month', 'week']);

/** Where a cue sits in its atom: before the finding (forward), after it (backward), or inside (ignored). */
export function placement(input: ScopeInput, a: Atom, h: CueHit): 'forward' | 'backward' | 'inner' {
  const { tokens, at } = input;
  const quiet = (k: number, fillers: ReadonlySet<string>) =>
    !isWord(tokens[k]!) || fillers.has(tokens[k]!.norm) || (at[k] !== undefined && at[k] !== h && at[k]!.defs[0]!.kind !== 'pseudo');
  let prefix = true;
  for (let k = a.from; k < h.i; k++) if (!quiet(k, LEADING_FILLER)) prefix = false;
  let nothingAfter = true;
  // "MI in father at 52": the age a relative had it is no finding after the cue.
  const ageAt = (k: number) => /^\d{1,3}s?$/.test(tokens[k]!.norm) && tokens[k - 1]?.norm === 'at';
  // "flu vaccine not given this year", "not done yet": when it was withheld is no finding either.
  const when = (k: number) => tokens[k]!.norm === 'yet' || (PERIOD.has(tokens[k]!.norm) && THIS_OR_LAST.has(tokens[k - 1]?.norm ?? '')) || (THIS_OR_LAST.has(tokens[k]!.norm) && PERIOD.has(tokens[k + 1]?.norm ?? ''));
  for (let k = h.j; k < a.to; k++) if (!quiet(k, TRAILING_FILLER) && !ageAt(k) && !when(k)) nothingAfter = false;
  if (prefix && !nothingAfter) return 'forward';
  // A cue alone in its atom ("fever and chills resolved", "Fever, now resolved") looks back when it can.
  if (nothingAfter) return h.defs.some((d) => d.direction === 'backward') ? 'backward' : prefix ? 'forward' : 'inner';
  return 'inner';
}

/** The definition for this direction; of several ("r/o" twice), the one reaching furthest over a list. */
export function pick(h: CueHit, direction: 'forward' | 'backward'): CueDef | undefined {
  const ds = h.defs.filter((d) => d.direction === direction && d.kind !== 'exposure');
  return ds.sort((a, b) => REACH[b.list] - REACH[a.list])[0];
}

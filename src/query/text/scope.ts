import type { Atom, Segment } from './atoms.js';
import type { CueDef, CueKind, ListReach } from './cue-lexicon.js';
import type { CueHit } from './cues.js';
import type { Token } from './segment.js';
import type { Assertion, Experiencer, Temporality } from './types.js';
import { ACUTE, LEADING_FILLER, NOT_BARE, SUBJECTS, TRAILING_FILLER } from './words.js';

/**
 * ConText-style scopes over the atoms of one sentence. A forward cue opens a scope at the
 * start of its atom; it covers atoms joined by and/or/nor/with, and following comma items
 * when they form a list of bare noun phrases (how far depends on the cue: `ListReach`).
 * Termination cues, a new subject ("and I keep coughing"), a positive cue ("reports") or a
 * modifier clause end it. Backward cues ("resolved", "as a child") cover their own segment.
 */
export interface AtomContext {
  assertion: Assertion;
  experiencer: Experiencer;
  temporality: Temporality;
  cue: string | null;
  /** Token indices used as cues: left out of the finding text. */
  cueTokens: Set<number>;
  /** "no appetite" -> "loss of appetite" when the atom is that pseudo-negation. */
  rewrite: string | null;
}

interface Scope {
  cue: string;
  kind: CueKind;
  list: ListReach;
  seg: number;
}

interface State {
  neg: Scope | null;
  poss: Scope | null;
  hypo: Scope | null;
  hist: Scope | null;
  exp: Scope | null;
  /** "no longer": historical but present, and ends a negation. */
}

const VERBS = new Set('is are was were am has have had feel feels felt get gets got hurts hurt hurting keeps kept started began been seems seem went goes came comes think thought took take noticed'.split(' '));
const LIST_CLOSERS = new Set(['and', 'or', 'nor']);

export interface ScopeInput {
  text: string;
  tokens: readonly Token[];
  at: (CueHit | undefined)[];
  segments: readonly Segment[];
  atoms: readonly Atom[];
  /** Segments that hold a value (duration, intensity, temperature): no bare list item. */
  segmentHasValue: (seg: number) => boolean;
}

const isWord = (t: Token) => /[a-z0-9]/i.test(t.raw);
const cueText = (input: ScopeInput, h: CueHit) => input.text.slice(input.tokens[h.i]!.start, input.tokens[h.j - 1]!.end);

/** A list item: a short noun phrase with no cue, subject, verb, value or "normal"-type word. */
function bare(input: ScopeInput, s: number): boolean {
  const seg = input.segments[s]!;
  if (seg.modifier || seg.terminated || input.segmentHasValue(s)) return false;
  const words = input.tokens.slice(seg.from, seg.to).filter(isWord);
  for (let k = seg.from; k < seg.to; k++) {
    const h = input.at[k];
    if (h && h.defs.some((d) => d.kind !== 'exposure')) return false;
  }
  const first = words.find((t) => !LIST_CLOSERS.has(t.norm));
  if (!first || SUBJECTS.has(first.norm)) return false;
  const contentWords = words.filter((t) => !LEADING_FILLER.has(t.norm));
  return contentWords.length >= 1 && contentWords.length <= 4 && !words.some((t) => VERBS.has(t.norm) || NOT_BARE.has(t.norm));
}

/** Past problems and relatives' problems are listed tersely: "h/o CHF, acute severe dyspnea" ends the history list. */
function pastListItem(input: ScopeInput, s: number): boolean {
  const seg = input.segments[s]!;
  const words = input.tokens.slice(seg.from, seg.to).filter((t) => isWord(t) && !LEADING_FILLER.has(t.norm));
  return words.length <= 3 && !words.some((t) => ACUTE.has(t.norm));
}

function listContinues(input: ScopeInput, scope: Scope, s: number): boolean {
  if (!bare(input, s)) return false;
  if ((scope.kind === 'historical' || scope.kind === 'family' || scope.kind === 'other') && !pastListItem(input, s)) return false;
  if (scope.list === 'strong') return true;
  let m = s;
  for (; m < input.segments.length && bare(input, m); m++) {
    const first = input.tokens[input.segments[m]!.from]!.norm;
    if (scope.list === 'none' && LIST_CLOSERS.has(first)) return true;
  }
  return scope.list === 'weak' && m === input.segments.length;
}

/** Where a cue sits in its atom: before the finding (forward), after it (backward), or inside (ignored). */
function placement(input: ScopeInput, a: Atom, h: CueHit): 'forward' | 'backward' | 'inner' {
  const { tokens, at } = input;
  const quiet = (k: number, fillers: ReadonlySet<string>) =>
    !isWord(tokens[k]!) || fillers.has(tokens[k]!.norm) || (at[k] !== undefined && at[k] !== h && at[k]!.defs[0]!.kind !== 'pseudo');
  let prefix = true;
  for (let k = a.from; k < h.i; k++) if (!quiet(k, LEADING_FILLER)) prefix = false;
  let nothingAfter = true;
  for (let k = h.j; k < a.to; k++) if (!quiet(k, TRAILING_FILLER)) nothingAfter = false;
  if (prefix && !nothingAfter) return 'forward';
  // A cue alone in its atom ("fever and chills resolved", "Fever, now resolved") looks back when it can.
  if (nothingAfter) return h.defs.some((d) => d.direction === 'backward') ? 'backward' : prefix ? 'forward' : 'inner';
  return 'inner';
}

const REACH: Record<ListReach, number> = { strong: 2, weak: 1, none: 0 };

/** The definition for this direction; of several ("r/o" twice), the one reaching furthest over a list. */
function pick(h: CueHit, direction: 'forward' | 'backward'): CueDef | undefined {
  const ds = h.defs.filter((d) => d.direction === direction && d.kind !== 'exposure');
  return ds.sort((a, b) => REACH[b.list] - REACH[a.list])[0];
}

export function assignContexts(input: ScopeInput): AtomContext[] {
  const state: State = { neg: null, poss: null, hypo: null, hist: null, exp: null };
  const out: AtomContext[] = [];
  let seg = -1;
  let afterModifier = false;
  let head: AtomContext | null = null;
  const hitsIn = (a: Atom) => {
    const hs: CueHit[] = [];
    for (let k = a.from; k < a.to; k++) if (input.at[k] && input.at[k]!.i === k) hs.push(input.at[k]!);
    return hs;
  };
  input.atoms.forEach((a, idx) => {
    const segment = input.segments[a.seg]!;
    if (a.seg !== seg) {
      seg = a.seg;
      if (segment.terminated) Object.assign(state, { neg: null, poss: null, hypo: null, hist: null, exp: null });
      else if (!segment.modifier) {
        for (const key of ['neg', 'poss', 'hist', 'exp'] as const) {
          const sc = state[key];
          if (sc && sc.seg !== seg && (afterModifier || !listContinues(input, sc, seg))) state[key] = null;
        }
      }
      afterModifier = segment.modifier;
    }
    const ctx: AtomContext = { assertion: 'present', experiencer: 'patient', temporality: 'current', cue: null, cueTokens: new Set(), rewrite: null };
    const firstWord = input.tokens.slice(a.from, a.to).find(isWord);
    if (a.joiner !== null && firstWord && SUBJECTS.has(firstWord.norm)) Object.assign(state, { neg: null, poss: null, hist: null, exp: null });
    const own: State = { neg: null, poss: null, hypo: null, hist: null, exp: null };
    const local: State = { neg: null, poss: null, hypo: null, hist: null, exp: null };
    // Resetting cues ("reports", "now", "but") act before the atom's own cues: "does not have a rash" stays negated.
    const resets = new Set<CueKind>(['positive', 'current', 'header', 'terminate']);
    const ordered = hitsIn(a).sort((x, y) => Number(!resets.has(x.defs[0]!.kind)) - Number(!resets.has(y.defs[0]!.kind)));
    for (const h of ordered) {
      const where = placement(input, a, h);
      const text = cueText(input, h);
      const mark = () => { for (let k = h.i; k < h.j; k++) ctx.cueTokens.add(k); };
      if (h.defs[0]!.kind === 'pseudo') {
        // '' = words with no finding of their own ("not only"): dropped from the text.
        if (h.defs[0]!.rewrite !== null) { ctx.rewrite = h.defs[0]!.rewrite || null; mark(); }
        continue;
      }
      const d = where === 'inner' ? undefined : pick(h, where) ?? (where === 'backward' ? undefined : pick(h, 'backward'));
      if (!d) continue;
      mark();
      const sc: Scope = { cue: text, kind: d.kind, list: d.list, seg: a.seg };
      // Backward cues and the cues of a modifier clause stay with their own atom(s).
      const target = d.direction === 'backward' ? own : segment.modifier ? local : state;
      switch (d.kind) {
        case 'negated': target.neg = sc; break;
        case 'possible': target.poss = sc; break;
        case 'hypothetical': target.hypo = sc; break;
        case 'historical':
          target.hist = sc;
          if (/^no longer$/i.test(text)) state.neg = null;
          break;
        case 'family': case 'other': target.exp = sc; break;
        case 'current': state.hist = null; break;
        case 'positive': state.neg = null; state.poss = null; break;
        case 'header': Object.assign(state, { neg: null, poss: null, hypo: null, hist: null, exp: null }); break;
        case 'terminate': state.neg = null; state.poss = null; break;
        default: break;
      }
    }
    const base: State = segment.modifier && head ? headState(head) : state;
    const mine = (key: keyof State) => own[key] ?? local[key] ?? base[key];
    const neg = mine('neg'), poss = mine('poss'), hypo = mine('hypo'), hist = mine('hist'), exp = mine('exp');
    if (hypo) ctx.assertion = 'hypothetical';
    else if (neg) ctx.assertion = 'absent';
    else if (poss) ctx.assertion = 'possible';
    if (exp) ctx.experiencer = exp.kind === 'other' ? 'other' : 'family';
    if (hist) ctx.temporality = 'historical';
    const assertionCue = hypo ?? neg ?? poss;
    ctx.cue = (assertionCue ?? exp ?? hist)?.cue ?? null;
    // A backward cue ("fever and chills resolved") also covers the atoms before it in its segment.
    for (const key of ['neg', 'poss', 'hist', 'exp'] as const) {
      if (!own[key] || own[key]!.kind === 'hypothetical') continue;
      for (let p = idx - 1; p >= 0 && input.atoms[p]!.seg === a.seg; p--) applyBackward(out[p]!, key, own[key]!);
      // "Fever, now resolved": a cue-only first atom reaches back into the previous segment.
      const firstInSegment = idx === 0 || input.atoms[idx - 1]!.seg !== a.seg;
      if (firstInSegment && idx > 0 && isCueOnly(input, a, ctx)) {
        const prevSeg = input.atoms[idx - 1]!.seg;
        for (let p = idx - 1; p >= 0 && input.atoms[p]!.seg === prevSeg; p--) applyBackward(out[p]!, key, own[key]!);
      }
    }
    if (!segment.modifier) head = ctx;
    out.push(ctx);
  });
  return out;
}

function headState(head: AtomContext): State {
  const sc = (kind: CueKind): Scope => ({ cue: head.cue ?? '', kind, list: 'none', seg: -1 });
  return {
    neg: head.assertion === 'absent' ? sc('negated') : null,
    poss: head.assertion === 'possible' ? sc('possible') : null,
    hypo: head.assertion === 'hypothetical' ? sc('hypothetical') : null,
    hist: head.temporality === 'historical' ? sc('historical') : null,
    exp: head.experiencer !== 'patient' ? sc(head.experiencer === 'other' ? 'other' : 'family') : null,
  };
}

function applyBackward(ctx: AtomContext, key: 'neg' | 'poss' | 'hist' | 'exp', sc: Scope): void {
  if (key === 'neg' && ctx.assertion !== 'hypothetical') ctx.assertion = 'absent';
  else if (key === 'poss' && ctx.assertion === 'present') ctx.assertion = 'possible';
  else if (key === 'hist') ctx.temporality = 'historical';
  else if (key === 'exp') ctx.experiencer = sc.kind === 'other' ? 'other' : 'family';
  ctx.cue ??= sc.cue;
}

export function isCueOnly(input: ScopeInput, a: Atom, ctx: AtomContext): boolean {
  for (let k = a.from; k < a.to; k++) {
    const t = input.tokens[k]!;
    if (isWord(t) && !ctx.cueTokens.has(k) && !LEADING_FILLER.has(t.norm) && !TRAILING_FILLER.has(t.norm)) return false;
  }
  return ctx.rewrite === null;
}

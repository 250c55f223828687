import type { Atom } from './atoms.js';
import type { CueKind } from './cue-lexicon.js';
import type { CueHit } from './cues.js';
import { listContinues, pick, placement, type Scope, type ScopeInput } from './scope-rules.js';
import { isWord, queriesAbbreviation } from './segment.js';
import type { Assertion, Experiencer, Temporality } from './types.js';
import { LEADING_FILLER, TRAILING_FILLER, opensWithSubject } from './words.js';

export type { ScopeInput } from './scope-rules.js';

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

interface State {
  neg: Scope | null;
  poss: Scope | null;
  hypo: Scope | null;
  hist: Scope | null;
  exp: Scope | null;
}
type ScopeKey = keyof State;

const empty = (): State => ({ neg: null, poss: null, hypo: null, hist: null, exp: null });
const KEY: Partial<Record<CueKind, ScopeKey>> = { negated: 'neg', possible: 'poss', hypothetical: 'hypo', historical: 'hist', family: 'exp', other: 'exp' };
const REPORTING = /^(?:reports|reported|reporting|endorses|endorsed|endorsing|complains of|complaining of|complained of|c\/o|admits to|notes|noted|presents with|presenting with|presented with|comes in with|came in with)$/i;
/** Resetting cues ("reports", "now", "but") act before the atom's own cues: "does not have a rash" stays negated. */
const RESETS = new Set<CueKind>(['positive', 'current', 'header', 'terminate']);

export function assignContexts(input: ScopeInput): AtomContext[] {
  const state = empty();
  const out: AtomContext[] = [];
  let seg = -1;
  let afterModifier = false;
  let head: AtomContext | null = null;
  input.atoms.forEach((a, idx) => {
    const segment = input.segments[a.seg]!;
    if (a.seg !== seg) {
      seg = a.seg;
      enterSegment(input, state, seg, afterModifier);
      afterModifier = segment.modifier;
    }
    if (a.joiner !== null && opensWithSubject(input.tokens.slice(a.from, a.to).filter(isWord))) Object.assign(state, { neg: null, poss: null, hist: null, exp: null });
    const ctx: AtomContext = { assertion: 'present', experiencer: 'patient', temporality: 'current', cue: null, cueTokens: new Set(), rewrite: null };
    // Backward cues stay with their own segment; a modifier clause's own cues stay with it.
    const own = empty();
    const local = empty();
    const hits = hitsIn(input, a).sort((x, y) => Number(!RESETS.has(x.defs[0]!.kind)) - Number(!RESETS.has(y.defs[0]!.kind)));
    for (const h of hits) applyCue(input, a, h, ctx, { state, own, local: segment.modifier ? local : state });
    const base = segment.modifier && head ? headState(head) : state;
    resolve(ctx, (key) => own[key] ?? local[key] ?? base[key]);
    // "PE vs pneumonia": both alternatives are possible.
    if ((a.joiner === 'vs' || a.joiner === 'versus') && idx > 0) {
      for (const c of [ctx, out[idx - 1]!]) if (c.assertion === 'present') Object.assign(c, { assertion: 'possible', cue: c.cue ?? a.joiner });
    }
    reachBack(input, out, idx, ctx, own);
    if (!segment.modifier) head = ctx;
    out.push(ctx);
  });
  return out;
}

/** A new comma segment: a termination ends every scope; otherwise a scope lives on only over a list. */
function enterSegment(input: ScopeInput, state: State, seg: number, afterModifier: boolean): void {
  const segment = input.segments[seg]!;
  if (segment.terminated) Object.assign(state, empty());
  else if (!segment.modifier) {
    for (const key of ['neg', 'poss', 'hist', 'exp'] as const) {
      const sc = state[key];
      if (sc && sc.seg !== seg && (afterModifier || !listContinues(input, sc, seg))) state[key] = null;
    }
  }
}

function hitsIn(input: ScopeInput, a: Atom): CueHit[] {
  const hs: CueHit[] = [];
  for (let k = a.from; k < a.to; k++) if (input.at[k]?.i === k) hs.push(input.at[k]!);
  return hs;
}

function applyCue(input: ScopeInput, a: Atom, h: CueHit, ctx: AtomContext, to: { state: State; own: State; local: State }): void {
  const mark = () => { for (let k = h.i; k < h.j; k++) ctx.cueTokens.add(k); };
  const first = h.defs[0]!;
  if (first.kind === 'pseudo') {
    // rewrite '' = words with no finding of their own ("not only"): dropped from the text.
    if (first.rewrite !== null) {
      ctx.rewrite = first.rewrite || null;
      mark();
    }
    return;
  }
  if (first.kind === 'frame') {
    mark();
    return;
  }
  // "What could cause chest pain and SOB?": a question about the writer's own findings asserts them.
  if (first.tokens[0] === '?' && framed(input)) return;
  const where = placement(input, a, h);
  const d = where === 'inner' ? undefined : pick(h, where) ?? (where === 'backward' ? undefined : pick(h, 'backward'));
  if (!d) return;
  mark();
  const text = input.text.slice(input.tokens[h.i]!.start, input.tokens[h.j - 1]!.end);
  const key = KEY[d.kind];
  if (key) {
    // A query mark on an abbreviation ("?PTX") is the atom's own (segment.ts).
    const own = d.direction === 'backward' || queriesAbbreviation(input.tokens, h.i);
    (own ? to.own : to.local)[key] = { cue: text, kind: d.kind, list: d.list, seg: a.seg };
    if (/^no longer$/i.test(text)) to.state.neg = null; // historical, and present
    return;
  }
  if (d.kind === 'current') to.state.hist = null;
  // A reporting verb ("reports", "presents with") speaks of the patient now: every earlier scope but a hypothetical ends;
  // "has", "with" only end a negation ("my mother has diabetes and has had a stroke" is still the mother).
  else if (d.kind === 'positive') Object.assign(to.state, REPORTING.test(text) ? { neg: null, poss: null, hist: null, exp: null } : { neg: null, poss: null });
  else if (d.kind === 'terminate') Object.assign(to.state, { neg: null, poss: null });
  else if (d.kind === 'header') Object.assign(to.state, empty());
}

const WH = new Set(['what', 'why', 'how', 'which', 'who', 'where', 'when', "what's", 'whats']);

function framed(input: ScopeInput): boolean {
  return WH.has(input.tokens[0]?.norm ?? '') || input.at.some((h) => h?.defs[0]!.kind === 'frame');
}

function resolve(ctx: AtomContext, get: (key: ScopeKey) => Scope | null): void {
  const neg = get('neg'), poss = get('poss'), hypo = get('hypo'), hist = get('hist'), exp = get('exp');
  if (hypo) ctx.assertion = 'hypothetical';
  else if (neg) ctx.assertion = 'absent';
  else if (poss) ctx.assertion = 'possible';
  if (exp) ctx.experiencer = exp.kind === 'other' ? 'other' : 'family';
  if (hist) ctx.temporality = 'historical';
  ctx.cue = (hypo ?? neg ?? poss ?? exp ?? hist)?.cue ?? null;
}

/** A backward cue ("fever and chills resolved") also covers the atoms before it in its segment;
 *  a cue-only first atom ("Fever, now resolved") reaches into the previous segment. */
function reachBack(input: ScopeInput, out: AtomContext[], idx: number, ctx: AtomContext, own: State): void {
  const a = input.atoms[idx]!;
  const firstInSegment = idx === 0 || input.atoms[idx - 1]!.seg !== a.seg;
  const prevSeg = idx > 0 && firstInSegment && isCueOnly(input, a, ctx) ? input.atoms[idx - 1]!.seg : -1;
  for (const key of ['neg', 'poss', 'hist', 'exp'] as const) {
    const sc = own[key];
    if (!sc) continue;
    for (let p = idx - 1; p >= 0 && (input.atoms[p]!.seg === a.seg || input.atoms[p]!.seg === prevSeg); p--) applyBackward(out[p]!, key, sc);
  }
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

function isCueOnly(input: ScopeInput, a: Atom, ctx: AtomContext): boolean {
  for (let k = a.from; k < a.to; k++) {
    const t = input.tokens[k]!;
    if (isWord(t) && !ctx.cueTokens.has(k) && !LEADING_FILLER.has(t.norm) && !TRAILING_FILLER.has(t.norm)) return false;
  }
  return ctx.rewrite === null;
}

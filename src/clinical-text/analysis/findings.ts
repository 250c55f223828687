import type { Atom, Segment } from './atoms.js';
import type { CueHit } from './cues.js';
import type { AtomContext } from './scope.js';
import { isWord, type Token } from './segment.js';
import { SINGLE_WORD } from './single-word.js';
import type { ExtractedValues, Span, TextFinding } from './types.js';
import { sideOfToken, type ValueHit } from './values.js';
import { EMPTY_WORDS, LEADING_FILLER, TEMPERATURE_WORDS, TRAILING_FILLER } from './words.js';

const FEVER_WORDS = new Set(['fever', 'fevers', 'febrile', 'feverish', 'pyrexia', 'pyrexial', 'temp', 'temperature', 'tmax', 't']);

/**
 * Atoms + contexts -> TextFindings: cue and filler words trimmed, one-word negatives
 * ("afebrile") turned into findings of their own, values attached, a measured temperature
 * turned into a fever finding, and each finding given its clause (head + modifiers).
 */
export interface FindingParts {
  text: string;
  source: string;
  tokens: readonly Token[];
  hits: readonly CueHit[];
  values: readonly ValueHit[];
  segments: readonly Segment[];
  atoms: readonly Atom[];
  contexts: readonly AtomContext[];
  extent: readonly Span[];
}

const FEVER_AT_C = 38.0;
const NO_FEVER_BELOW_C = 37.5;
const BOUNDARY = new Set([',', ':', '-']);
const JOINER_WORDS = new Set(['and', 'or', 'nor', '&', 'with', 'w/', 'plus', 'also']);

/** Each atom's group head (first atom of its head segment) and the group's clause span (head + modifiers). */
function groups(p: FindingParts): { head: number[]; clause: Span[] } {
  const segGroup: number[] = [];
  p.segments.forEach((s, i) => {
    segGroup[i] = !s.modifier || i === 0 ? i : segGroup[i - 1]!;
  });
  const groupSpan = new Map<number, Span>();
  p.segments.forEach((_, i) => {
    const g = segGroup[i]!;
    const cur = groupSpan.get(g);
    const e = p.extent[i]!;
    groupSpan.set(g, cur ? { start: Math.min(cur.start, e.start), end: Math.max(cur.end, e.end) } : { ...e });
  });
  const firstAtom = new Map<number, number>();
  p.atoms.forEach((a, i) => { if (!firstAtom.has(a.seg)) firstAtom.set(a.seg, i); });
  return {
    head: p.atoms.map((a) => firstAtom.get(segGroup[a.seg]!) ?? 0),
    clause: p.atoms.map((a) => groupSpan.get(segGroup[a.seg]!)!),
  };
}

/**
 * Which atom a value describes: the one it sits in; else the finding it follows in its
 * clause ("cough x3 days"); else the one it opens ("3d increased dyspnea", "and for the
 * last few days I'm out of breath"); a value alone in its clause ("chest pain, 7/10")
 * goes to the head of the clause group before it. -1: no atom at all.
 */
function assignValues(p: FindingParts, head: number[]): Map<number, ValueHit[]> {
  const out = new Map<number, ValueHit[]>();
  const add = (i: number, v: ValueHit) => out.set(i, [...(out.get(i) ?? []), v]);
  const starts = p.atoms.map((a) => p.tokens[a.from]!.start);
  const ends = p.atoms.map((a) => p.tokens[a.to - 1]!.end);
  const tokenStarts = p.tokens.map((t) => t.start);
  // Binary searches keep long sentences linear-logarithmic.
  const lastAtOrBefore = (xs: number[], x: number) => {
    let lo = 0, hi = xs.length - 1, best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid]! <= x) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  };
  const between = (from: number, to: number, words: ReadonlySet<string>) => {
    for (let k = lastAtOrBefore(tokenStarts, from - 1) + 1; k < p.tokens.length && p.tokens[k]!.end <= to; k++) if (words.has(p.tokens[k]!.norm)) return true;
    return false;
  };
  for (const v of p.values) {
    const cand = lastAtOrBefore(starts, v.span.start);
    if (cand >= 0 && v.span.start < ends[cand]!) {
      add(cand, v);
      continue;
    }
    const prev = lastAtOrBefore(ends, v.span.start);
    const nextAt = lastAtOrBefore(starts, v.span.end - 1) + 1;
    const next = nextAt < p.atoms.length ? nextAt : -1;
    const boundaryBefore = prev >= 0 && between(ends[prev]!, v.span.start, BOUNDARY);
    const boundaryAfter = next >= 0 && between(v.span.end, starts[next]!, BOUNDARY);
    const joinerBefore = prev >= 0 && between(ends[prev]!, v.span.start, JOINER_WORDS);
    if (next >= 0 && !boundaryAfter && (prev < 0 || boundaryBefore || joinerBefore)) add(next, v);
    else if (prev >= 0) add(boundaryBefore ? head[prev]! : prev, v);
    else add(next, v);
  }
  return out;
}

/** Kept token range of an atom: cue tokens out, fillers trimmed from both ends. */
function keptTokens(p: FindingParts, a: Atom, ctx: AtomContext, drop: ReadonlySet<number>): number[] {
  const ks: number[] = [];
  for (let k = a.from; k < a.to; k++) if (!ctx.cueTokens.has(k) && !drop.has(k)) ks.push(k);
  const word = (k: number) => isWord(p.tokens[k]!);
  while (ks.length > 0 && (!word(ks[0]!) || LEADING_FILLER.has(p.tokens[ks[0]!]!.norm))) ks.shift();
  while (ks.length > 0 && (!word(ks[ks.length - 1]!) || TRAILING_FILLER.has(p.tokens[ks[ks.length - 1]!]!.norm))) ks.pop();
  return ks;
}

function textOf(p: FindingParts, ks: number[]): string {
  let s = '';
  ks.forEach((k, n) => {
    const t = p.tokens[k]!;
    if (n > 0) s += ks[n - 1] === k - 1 ? p.text.slice(p.tokens[k - 1]!.end, t.start) : ' ';
    s += p.text.slice(t.start, t.end);
  });
  s = s.replace(/\s+/g, ' ').trim();
  const open = (s.match(/\(/g) ?? []).length - (s.match(/\)/g) ?? []).length;
  return open > 0 ? s + ')'.repeat(open) : s;
}

/** "right after eating", "right away" are no side. */
const NOT_SIDE_AFTER = new Set(['after', 'before', 'away', 'now', 'then', 'when', 'there', 'here', 'at', 'as', 'into', 'through', 'back']);

function sideOf(p: FindingParts, ks: number[]): ExtractedValues['side'] {
  let side: ExtractedValues['side'];
  for (const k of ks) {
    if (p.tokens[k]!.norm === 'right' && NOT_SIDE_AFTER.has(p.tokens[k + 1]?.norm ?? '')) continue;
    const s = sideOfToken(p.tokens[k]!.raw);
    if (s) side = side && side !== s ? 'both' : s;
  }
  return side;
}

/** "MI 2 years ago": a time-ago of a year or more makes the finding historical. */
function applyHistory(p: FindingParts, f: TextFinding, hits: readonly ValueHit[]): void {
  const ago = hits.find((v) => v.kind === 'duration' && v.historical);
  if (!ago || f.temporality === 'historical') return;
  f.temporality = 'historical';
  f.cue ??= p.source.slice(ago.span.start, ago.span.end);
}

function applyValues(values: ExtractedValues, hits: readonly ValueHit[]): void {
  for (const v of hits) {
    if (v.kind === 'intensity') values.intensity ??= v.intensity;
    else if (v.kind === 'duration') values.duration ??= v.duration;
    else values.temperatureC ??= v.temperatureC;
  }
}

/** The fever finding a measured temperature makes: present from 38.0 °C, absent below 37.5 °C, else a plain "temperature" (measuredOnly) or none. */
function feverFinding(span: Span, clause: Span, c: number, ctx: AtomContext | null, measuredOnly: boolean): TextFinding | null {
  const assertion = ctx?.assertion === 'absent' || c < NO_FEVER_BELOW_C ? 'absent' : c >= FEVER_AT_C ? (ctx?.assertion ?? 'present') : null;
  if (assertion === null && !measuredOnly) return null;
  return {
    text: assertion === null ? 'temperature' : 'fever', span, clause, assertion: assertion ?? ctx?.assertion ?? 'present',
    experiencer: ctx?.experiencer ?? 'patient', temporality: ctx?.temporality ?? 'current', cue: ctx?.cue ?? null, values: { temperatureC: c },
  };
}

/** Findings of one atom, appended to `out` (whose last entry is the finding before it). */
function atomFindings(p: FindingParts, i: number, clause: Span, vals: readonly ValueHit[], out: TextFinding[]): void {
  const a = p.atoms[i]!;
  const ctx = p.contexts[i]!;
  const base = (text: string, span: Span): TextFinding => ({
    text, span, clause, assertion: ctx.assertion, experiencer: ctx.experiencer, temporality: ctx.temporality, cue: ctx.cue, values: {},
  });
  const singles: number[] = [];
  for (let k = a.from; k < a.to; k++) if (!ctx.cueTokens.has(k) && SINGLE_WORD.has(p.tokens[k]!.norm)) singles.push(k);
  const ks = keptTokens(p, a, ctx, new Set(singles));
  for (const k of singles) {
    const sw = SINGLE_WORD.get(p.tokens[k]!.norm)!;
    const t = p.tokens[k]!;
    const f = base(sw.text, { start: t.start, end: t.end });
    if (ctx.assertion !== 'hypothetical') f.assertion = sw.assertion;
    if (sw.historical) f.temporality = 'historical';
    f.cue = t.raw;
    if (ks.length === 0) applyValues(f.values, vals);
    out.push(f);
  }
  const temp = vals.find((v) => v.kind === 'temperature');
  if (temp && ks.every((k) => TEMPERATURE_WORDS.has(p.tokens[k]!.norm))) {
    // "T 38.9", "febrile to 39.4": the measurement is the fever finding itself.
    const f = feverFinding(ks.length > 0 ? { start: p.tokens[ks[0]!]!.start, end: temp.span.end } : temp.span, clause, temp.temperatureC, ctx, true)!;
    applyValues(f.values, vals.filter((v) => v !== temp));
    out.push(f);
    return;
  }
  if (ctx.rewrite === null && ks.every((k) => EMPTY_WORDS.has(p.tokens[k]!.norm))) {
    // Nothing to name ("it's like 10/10", "started 2 days ago"): its values describe the finding before it.
    const prev = out[out.length - 1];
    if (prev && vals.length > 0) applyValues(prev.values, vals);
    return;
  }
  const f = ctx.rewrite !== null ? base(ctx.rewrite, spanOf(p, [...ctx.cueTokens])) : base(textOf(p, ks), spanOf(p, ks));
  const side = sideOf(p, ks);
  if (side) f.values.side = side;
  applyValues(f.values, vals);
  applyHistory(p, f, vals);
  out.push(f);
  if (temp && !ks.some((k) => FEVER_WORDS.has(p.tokens[k]!.norm))) {
    const extra = feverFinding(temp.span, clause, temp.temperatureC, ctx, false);
    if (extra) out.push(extra);
  }
}

function spanOf(p: FindingParts, ks: number[]): Span {
  const sorted = [...ks].sort((x, y) => x - y);
  return { start: p.tokens[sorted[0]!]!.start, end: p.tokens[sorted[sorted.length - 1]!]!.end };
}

export function buildFindings(p: FindingParts): TextFinding[] {
  const { head, clause } = groups(p);
  const byAtom = assignValues(p, head);
  const out: TextFinding[] = [];
  p.atoms.forEach((_, i) => atomFindings(p, i, clause[i]!, byAtom.get(i) ?? [], out));
  // A temperature in a sentence with no finding at all ("39.4C").
  for (const v of byAtom.get(-1) ?? []) {
    const f = v.kind === 'temperature' ? feverFinding(v.span, v.span, v.temperatureC, null, true) : null;
    if (f) out.push(f);
  }
  return dedupe(out);
}

/** "Fever 39.2, febrile": one fever finding per sentence and assertion, values merged. */
function dedupe(fs: TextFinding[]): TextFinding[] {
  const out: TextFinding[] = [];
  const seen = new Map<string, TextFinding>();
  for (const f of fs) {
    const key = `${f.text.toLowerCase()}|${f.assertion}|${f.experiencer}|${f.temporality}`;
    const same = seen.get(key);
    if (same) same.values = { ...f.values, ...same.values };
    else {
      seen.set(key, f);
      out.push(f);
    }
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

import { CUE_DEFS, type CueDef } from './cue-lexicon.js';
import type { Token } from './segment.js';

/** One cue phrase found in a sentence: tokens [i, j), every definition of that phrase. */
export interface CueHit {
  i: number;
  j: number;
  defs: readonly CueDef[];
}

/** Definitions by first token, longest phrase first, so matching is one pass over the tokens. */
const BY_FIRST = new Map<string, CueDef[][]>();
(() => {
  const byPhrase = new Map<string, CueDef[]>();
  for (const d of CUE_DEFS) {
    const key = d.tokens.join(' ');
    const list = byPhrase.get(key);
    if (list) list.push(d);
    else byPhrase.set(key, [d]);
  }
  for (const group of byPhrase.values()) {
    const first = group[0]!.tokens[0]!;
    const list = BY_FIRST.get(first) ?? [];
    list.push(group);
    BY_FIRST.set(first, list);
  }
  for (const list of BY_FIRST.values()) list.sort((a, b) => b[0]!.tokens.length - a[0]!.tokens.length);
})();

const IF_DEF: CueDef = { tokens: ['if'], kind: 'hypothetical', direction: 'forward', list: 'none', rewrite: null };
const SEGMENT_START = new Set([',', ':', '-', 'but', 'and', 'or']);

/**
 * Longest-match, left-to-right cue matching (as NegEx scans). Relation phrases naming the
 * patient ("my 2 year old son has") are skipped; section headers count only before ":".
 */
export function findCues(tokens: readonly Token[], patientNouns: ReadonlySet<string>): CueHit[] {
  // Pseudo-negations first, so "I'm not hungry" is the pseudo "not hungry", not the cue "I'm not".
  const pseudo = scan(tokens, patientNouns, new Set(), true);
  const claimed = new Set<number>();
  for (const h of pseudo) for (let k = h.i; k < h.j; k++) claimed.add(k);
  return [...pseudo, ...scan(tokens, patientNouns, claimed, false)].sort((a, b) => a.i - b.i);
}

function longestCueAt(tokens: readonly Token[], i: number): number {
  for (const group of BY_FIRST.get(tokens[i]!.norm) ?? []) {
    const ts = group[0]!.tokens;
    if (group[0]!.kind !== 'pseudo' && i + ts.length <= tokens.length && ts.every((t, k) => tokens[i + k]!.norm === t)) return ts.length;
  }
  return 0;
}

function scan(tokens: readonly Token[], patientNouns: ReadonlySet<string>, claimed: ReadonlySet<number>, pseudoOnly: boolean): CueHit[] {
  const hits: CueHit[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (claimed.has(i)) {
      i++;
      continue;
    }
    const norm = tokens[i]!.norm;
    let hit: CueHit | null = null;
    for (const group of BY_FIRST.get(norm) ?? []) {
      const ts = group[0]!.tokens;
      if (i + ts.length > tokens.length || (group[0]!.kind === 'pseudo') !== pseudoOnly) continue;
      if (!ts.every((t, k) => tokens[i + k]!.norm === t && !claimed.has(i + k))) continue;
      let usable = group.filter((d) => d.kind !== 'header' || tokens[i + ts.length]?.norm === ':');
      if (patientNouns.has(norm.replace(/'s$/, ''))) usable = usable.filter((d) => d.kind !== 'other' && d.kind !== 'family');
      if (usable.length === 0) continue;
      hit = { i, j: i + ts.length, defs: usable };
      break;
    }
    // A longer real cue at the same place wins over a pseudo one: "cannot rule out" is no "cannot".
    if (hit && pseudoOnly && longestCueAt(tokens, i) > hit.j - i) hit = null;
    // "If she develops ..." opens a hypothetical at a sentence or clause start; "if I walk" is a condition.
    if (!hit && !pseudoOnly && norm === 'if' && (i === 0 || SEGMENT_START.has(tokens[i - 1]!.norm)) && !/^i('m|'ve)?$/.test(tokens[i + 1]?.norm ?? '')) {
      hit = { i, j: i + 1, defs: [IF_DEF] };
    }
    if (hit) {
      hits.push(hit);
      i = hit.j;
    } else i++;
  }
  return hits;
}

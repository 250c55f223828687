import type { CueDef } from './cue-lexicon.js';
import { CUE_TRIE, childOf, type TrieNode } from './cue-trie.js';
import type { Token } from './segment.js';

/** One cue phrase found in a sentence: tokens [i, j), every definition of that phrase. */
export interface CueHit {
  i: number;
  j: number;
  defs: readonly CueDef[];
}

/** Matches starting at token i, longest first: [end index, definitions] (one walk down the cue trie). */
function matchesAt(tokens: readonly Token[], i: number, claimed: ReadonlySet<number>): [number, CueDef[]][] {
  const out: [number, CueDef[]][] = [];
  let node: TrieNode | undefined = CUE_TRIE;
  for (let k = i; k < tokens.length && !claimed.has(k); k++) {
    node = childOf(node, tokens[k]!.norm);
    if (!node) break;
    if (node.defs) out.push([k + 1, node.defs]);
  }
  return out.reverse();
}

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
    const matches = matchesAt(tokens, i, claimed);
    for (const [j, defs] of matches) {
      let usable = defs.filter((d) => (d.kind === 'pseudo') === pseudoOnly && (d.kind !== 'header' || tokens[j]?.norm === ':'));
      if (patientNouns.has(norm.replace(/'s$/, ''))) usable = usable.filter((d) => d.kind !== 'other' && d.kind !== 'family');
      if (usable.length === 0) continue;
      // A longer real cue at the same place wins over a pseudo one: "cannot rule out" is no "cannot".
      if (pseudoOnly && matches.some(([j2, ds]) => j2 > j && ds.some((d) => d.kind !== 'pseudo'))) break;
      hit = { i, j, defs: usable };
      break;
    }
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

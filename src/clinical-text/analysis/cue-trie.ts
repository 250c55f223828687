import { BASE_CUE_DEFS, type CueDef } from './cue-lexicon.js';
import { RELATION_HEADS, RELATION_TAILS, relationDef } from './relation-cues.js';

/**
 * The cue phrases as a token trie, grown on demand. The plain cues (~1,500) are inserted at
 * import; the relation phrases (heads x tails, relation-cues.ts) are a shared tail trie hung
 * under each head's node, and a node copies its tails' next level into its own children the
 * first time a walk leaves it. A walk therefore sees the trie every phrase written out would
 * give (same paths, same definitions in the same order: test/unit/text-cue-trie.test.ts checks
 * it against allCueDefs()), while import builds a few thousand nodes instead of ~120,000.
 */
export interface TrieNode {
  next: Map<string, TrieNode>;
  defs: CueDef[] | null;
  /** Relation tails not yet copied into `next`: the tail trie's node and the phrase's tokens so far. */
  tails: Tail[] | null;
}
interface Tail {
  node: TailNode;
  tokens: readonly string[];
  kind: CueDef['kind'] & ('family' | 'other');
}
interface TailNode {
  next: Map<string, TailNode>;
  /** How many tails end here (a phrase written twice was two definitions). */
  ends: number;
}

const node = (): TrieNode => ({ next: new Map(), defs: null, tails: null });

function pathNode(root: TrieNode, tokens: readonly string[]): TrieNode {
  let at = root;
  for (const t of tokens) {
    let n = at.next.get(t);
    if (!n) at.next.set(t, (n = node()));
    at = n;
  }
  return at;
}

const TAIL_ROOT: TailNode = { next: new Map(), ends: 0 };
for (const tokens of RELATION_TAILS) {
  let at = TAIL_ROOT;
  for (const t of tokens) {
    let n = at.next.get(t);
    if (!n) at.next.set(t, (n = { next: new Map(), ends: 0 }));
    at = n;
  }
  at.ends++;
}

/** A fresh trie: the plain cues inserted, every relation head holding the whole tail trie. */
export function buildCueTrie(): TrieNode {
  const root = node();
  for (const d of BASE_CUE_DEFS) (pathNode(root, d.tokens).defs ??= []).push(d);
  for (const h of RELATION_HEADS) (pathNode(root, h.tokens).tails ??= []).push({ node: TAIL_ROOT, tokens: h.tokens, kind: h.kind });
  return root;
}

/** The matcher's trie (cues.ts), grown by the sentences it reads. */
export const CUE_TRIE: TrieNode = buildCueTrie();

/** Copies a node's pending tails one level down, appending their definitions after the plain ones (their order in the written-out list). */
function grow(at: TrieNode, tails: readonly Tail[]): void {
  for (const tail of tails) {
    for (const [t, sub] of tail.node.next) {
      let child = at.next.get(t);
      if (!child) at.next.set(t, (child = node()));
      const tokens = [...tail.tokens, t];
      for (let k = 0; k < sub.ends; k++) (child.defs ??= []).push(relationDef(tokens, tail.kind));
      if (sub.next.size > 0) (child.tails ??= []).push({ node: sub, tokens, kind: tail.kind });
    }
  }
}

/** The child of `at` for token `t`, growing `at` first if it still holds tails. */
export function childOf(at: TrieNode, t: string): TrieNode | undefined {
  if (at.tails) {
    const tails = at.tails;
    at.tails = null;
    grow(at, tails);
  }
  return at.next.get(t);
}

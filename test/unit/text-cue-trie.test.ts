import { strict as assert } from 'node:assert';
import { allCueDefs, type CueDef } from '../../src/clinical-text/analysis/cue-lexicon.js';
import { CUE_TRIE, buildCueTrie, childOf, type TrieNode } from '../../src/clinical-text/analysis/cue-trie.js';
import { findCues } from '../../src/clinical-text/analysis/cues.js';
import { splitSentences, tokenize, type Token } from '../../src/clinical-text/analysis/segment.js';

const sentencesOf = (text: string): Token[][] => splitSentences(text).map((span) => tokenize(text, span));

/**
 * The cue trie grows the relation phrases on demand (issue 49: writing out ~37,000 of them cost
 * every process ~0.3 s at import). The oracle is the old construction: every definition written
 * out (allCueDefs) and inserted into a plain trie. The grown trie must be that trie: same
 * paths, same definitions, in the same order.
 */
interface Plain {
  next: Map<string, Plain>;
  defs: CueDef[] | null;
}
function oracleTrie(defs: readonly CueDef[]): Plain {
  const root: Plain = { next: new Map(), defs: null };
  for (const d of defs) {
    let at = root;
    for (const t of d.tokens) {
      let n = at.next.get(t);
      if (!n) at.next.set(t, (n = { next: new Map(), defs: null }));
      at = n;
    }
    (at.defs ??= []).push(d);
  }
  return root;
}

/** Walks both tries together; returns the number of nodes compared. */
function compare(oracle: Plain, grown: TrieNode, path: string[]): number {
  assert.deepEqual(grown.defs, oracle.defs, `definitions at "${path.join(' ')}"`);
  let n = 1;
  for (const [t, o] of oracle.next) {
    const g = childOf(grown, t);
    assert.ok(g, `"${[...path, t].join(' ')}" is missing`);
    n += compare(o, g, [...path, t]);
  }
  // childOf grew the node above: nothing may be there that the written-out phrases lack.
  assert.deepEqual([...grown.next.keys()].sort(), [...oracle.next.keys()].sort(), `children of "${path.join(' ')}"`);
  return n;
}

/** [end, definitions] of every match from token i, as cues.ts's walk collects them. */
function walk(root: { next: Map<string, unknown> }, step: (n: never, t: string) => unknown, norms: string[], i: number): [number, unknown][] {
  const out: [number, unknown][] = [];
  let at = root as { defs: unknown; next: Map<string, unknown> } | undefined;
  for (let k = i; k < norms.length && at; k++) {
    at = step(at as never, norms[k]!) as typeof at;
    if (at?.defs) out.push([k + 1, at.defs]);
  }
  return out;
}

describe('cue trie grown on demand (relation phrases)', () => {
  const defs = allCueDefs();
  const oracle = oracleTrie(defs);

  it('is, fully grown, the trie of every definition written out', () => {
    const nodes = compare(oracle, buildCueTrie(), []);
    // Every written-out phrase was reached (the trie has a node per distinct prefix, more than the phrases' count).
    assert.ok(defs.length > 30_000 && nodes > defs.length, `${nodes} nodes for ${defs.length} definitions`);
  });

  it('starts with the relation phrases unwritten: their heads hold the tails', () => {
    const fresh = buildCueTrie();
    const mother = fresh.next.get('mother');
    assert.ok(mother?.tails && mother.next.size === 0, 'the head "mother" is not grown before a walk');
    const has = childOf(mother, 'has');
    assert.deepEqual(has?.defs, [{ tokens: ['mother', 'has'], kind: 'family', direction: 'forward', list: 'strong', rewrite: null }]);
  });

  // Sentences written for this test, in the style of notes and patients' messages.
  const sentences = [
    'Mother also had breast cancer at 45; father died young of an MI.',
    'My roommate who lives with us was diagnosed with TB last month, I have a cough.',
    "Pt's son's friend has had diarrhoea. No fever. Denies sick contacts.",
    'FHx: sister w/ lupus, grandma with RA. Runs in the family.',
    'The kids have had the same rash; husband just got back from a trip.',
    "my co-worker's been coughing, house mate I live with has the flu",
    'Uncle I live with has TB. Cough in my family? Possibly asthma.',
    'room mate - strep throat. colleague : flu. boss hx of shingles',
  ];

  it('matches what the written-out trie matches at every token of sample sentences', () => {
    for (const text of sentences) {
      for (const tokens of sentencesOf(text)) {
        const norms = tokens.map((t) => t.norm);
        for (let i = 0; i < norms.length; i++) {
          const grown = walk(CUE_TRIE, childOf as never, norms, i);
          const written = walk(oracle, ((n: Plain, t: string) => n.next.get(t)) as never, norms, i);
          assert.deepEqual(grown, written, `"${text}" at token ${i} (${norms[i]})`);
        }
      }
    }
  });

  it('finds a grown relation phrase as a cue of its own kind', () => {
    const [tokens] = sentencesOf('My roommate who lives with us was diagnosed with TB');
    const hit = findCues(tokens!, new Set()).find((h) => h.defs.some((d) => d.kind === 'other'));
    assert.ok(hit, 'a relation cue');
    assert.deepEqual(hit.defs[0]!.tokens, ['roommate', 'who', 'lives', 'with', 'us', 'was', 'diagnosed', 'with']);
    assert.equal(hit.defs[0]!.list, 'strong');
  });
});

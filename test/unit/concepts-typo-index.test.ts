import { strict as assert } from 'node:assert';
import { conceptIndexFor, type ConceptIndex } from '../../src/clinical-text/concepts/concept-index.js';
import { withinBudget } from '../../src/clinical-text/concepts/find-mentions.js';
import { lexiconConceptSet } from '../../src/clinical-text/concepts/lexicon-concept-set.js';
import { defaultDdxplusLexiconPath, loadLexicon } from '../../src/clinical-text/concepts/lexicon.js';
import { editDistance, tokenize, typoBudget, type Token } from '../../src/clinical-text/concepts/normalize.js';
import { crossesOpposites } from '../../src/clinical-text/concepts/real-words.js';
import { seededRandom } from '../../src/util/rng.js';

/**
 * The typo matcher looks only at stems of the token's first letter (an index built once per
 * concept index) and reuses its edit-distance rows: it must find what a scan of every stem with a
 * fresh table found, in the same order.
 */
function distanceByTable(a: string, b: string, max: number): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return Math.min(d[a.length]![b.length]!, max + 1);
}

/** The typo matcher as a scan of every stem of the index (what it was before the first-letter index). */
function withinBudgetByScan(index: ConceptIndex, token: Token, budget: number): string[] {
  let best = budget + 1;
  let found: string[] = [];
  for (const s of budget === 0 ? [] : index.byStem.keys()) {
    if (s.length < 4 || s[0] !== token.stem[0]) continue;
    const d = distanceByTable(token.stem, s, budget);
    if (d > budget || d > best || crossesOpposites(token.stem, s)) continue;
    if (d < best) found = [];
    best = d;
    found.push(s);
  }
  return found;
}

describe('concepts: typo matching index', () => {
  it('editDistance (reused rows, early exit) equals the full Damerau table up to max (above it, only "over" counts)', () => {
    const rand = seededRandom(3);
    const word = (n: number) => Array.from({ length: n }, () => 'aeinrst'[Math.floor(rand() * 7)]).join('');
    for (let k = 0; k < 3000; k++) {
      const a = word(1 + Math.floor(rand() * 14));
      const b = rand() < 0.5 ? word(1 + Math.floor(rand() * 14)) : a.slice(0, -1) + word(2);
      const max = Math.floor(rand() * 4);
      assert.equal(Math.min(editDistance(a, b, max), max + 1), distanceByTable(a, b, max), `${a} ${b} ${max}`);
    }
  });

  it('finds the stems a scan of every stem finds, in the same order, for misspelt clinical words', async () => {
    const lexicon = await loadLexicon(defaultDdxplusLexiconPath());
    assert.ok(lexicon.ok);
    const index = conceptIndexFor(lexiconConceptSet(lexicon.value), lexicon.value, 'coded');
    const words = 'feaver coughin diarea shortnes breathe palpitatons nausea vomitting headach dizzyness swolen abdominel tendernes wheezeing crakles erythma rashes fatige sweatting chestpain'.split(' ');
    let found = 0;
    for (const w of words) {
      const token = tokenize(w)[0]!;
      const budget = typoBudget(token.stem);
      const fast = withinBudget(index, token, budget).map((c) => c.stem);
      assert.deepEqual(fast, withinBudgetByScan(index, token, budget), w);
      if (fast.length > 0) found++;
    }
    assert.ok(found >= 8, `only ${found} misspellings met a stem: the test would not tell`);
  });
});

import assert from 'node:assert/strict';
import type { FreeTextCase } from '../../bench/lib/free-text-cases.js';
import type { FreeTextReport } from '../../bench/lib/free-text-run.js';
import { breakdown } from '../../bench/lib/free-text-score.js';
import { formatFreeText, formatMisses, freeTextTargets } from '../../bench/lib/free-text-table.js';

function kase(id: string, dxRank: number | null, baseRank: number | null, negatedAsPresent: string[] = []): FreeTextCase {
  return {
    id, condition: 'Pericarditis', style: 'lay', tags: ['negation'], text: `text of ${id}`, goldDiseaseId: 'dis:p',
    dxgraph: {
      rank: dxRank, top: [{ disease: 'URTI', score: 0.4 }], findings: 2,
      matches: [{ featureText: 'Do you have a cough?', code: 'E_201', polarity: 'present', similarity: 0.61, via: null }],
      negatedAsPresent, negationsCaught: [], insufficient: null, insufficientReason: null, ms: { match: 1, textToFeatures: 2, total: 5 },
    },
    baseline: { rank: baseRank, top: [{ disease: 'Pericarditis', score: 2.1 }] },
  };
}

function report(cases: FreeTextCase[], heldOut: FreeTextCase[] | null = null): FreeTextReport {
  const by = (pick: (c: FreeTextCase) => number | null) => breakdown(cases.map((c) => ({ style: c.style, tags: c.tags, rank: pick(c) })));
  return {
    set: { path: 'x.jsonl', sha256: '0', n: cases.length, conditions: 1 }, split: { seed: 1, testFraction: 0.4 }, trainRecords: 10, k: 10,
    build: { buildId: 'b1', seconds: 1 }, embedder: 'hashed', unknownGold: 0, unknownGoldConditions: [],
    heldOut: heldOut ? [{ ...report(heldOut), set: { path: 'datasets/test.jsonl', sha256: '1', n: heldOut.length, conditions: 1 } }] : [],
    dxgraph: {
      scores: by((c) => c.dxgraph.rank),
      negatedAsPresent: { codes: cases.reduce((s, c) => s + c.dxgraph.negatedAsPresent.length, 0), cases: cases.filter((c) => c.dxgraph.negatedAsPresent.length > 0).length, ofCodes: 5 },
      negationsCaught: { codes: 0, ofCodes: 5 }, noMatchShare: 0, insufficient: null, latencyMs: { matchP50: 1, textToFeaturesP50: 2, totalP50: 5 },
    },
    baseline: { scores: by((c) => c.baseline.rank) },
    cases,
  };
}

describe('bench free text: targets and tables', () => {
  it('checks the issue 17 goals against the figures, and says "not measured" without a run', () => {
    const r = report([kase('v001', 1, 4), kase('v002', 2, 5), kase('v003', 1, 1, ['E_201']), kase('v004', 9, null)]);
    const t = Object.fromEntries(freeTextTargets(r).map((x) => [x.name, x]));
    assert.equal(t['free text top-3 (vignettes)']!.measured, '75.0%');
    assert.equal(t['free text top-3 (vignettes)']!.met, false);
    assert.equal(t['free text top-1 (vignettes)']!.met, false);
    assert.equal(t['free text top-3 minus TF-IDF kNN']!.measured, '+50.0 points');
    assert.equal(t['free text top-3 minus TF-IDF kNN']!.met, true);
    assert.equal(t['negated findings matched present']!.measured, '1');
    assert.equal(t['negated findings matched present']!.met, false);
    assert.ok(freeTextTargets(null).every((x) => x.met === null && x.measured === 'not measured'));
  });

  it('the misses list shows every case not ranked first, with text, both top-3s and the matches', () => {
    const out = formatMisses([kase('v001', 1, 1), kase('v002', 3, 1, ['E_201'])]);
    assert.ok(!out.includes('v001'));
    assert.match(out, /v002 .*gold Pericarditis: dxgraph rank 3, TF-IDF rank 1/);
    assert.match(out, /text: text of v002/);
    assert.match(out, /NEGATED AS PRESENT: E_201/);
    assert.match(out, /\+ Do you have a cough\? \[E_201\] 0\.61/);
    assert.equal(formatMisses([kase('v001', 1, 1)]), '(no misses)');
  });

  it('the table has one row per style and tag, both systems side by side', () => {
    const out = formatFreeText(report([kase('v001', 1, 4), kase('v002', 2, null)]));
    assert.match(out, /overall\s+2\s+50\.0 \/ 100\.0 \/ 100\.0\s+0\.0 \/\s+0\.0 \/\s+50\.0/);
    assert.match(out, /style lay\s+2/);
    assert.match(out, /tag negation\s+2/);
  });

  it('a held-out set is reported apart, under its own heading, and its figures are not goals', () => {
    const r = report([kase('v001', 1, 4)], [kase('v501', 1, 2), kase('v502', 4, 1, ['E_91'])]);
    const out = formatFreeText(r);
    assert.match(out, /held-out set datasets\/test\.jsonl: 2 cases.*never used for tuning/);
    assert.match(out.split('held-out set')[1]!, /overall\s+2\s+50\.0 \/\s+50\.0 \/ 100\.0/);
    const t = Object.fromEntries(freeTextTargets(r).map((x) => [x.name, x]));
    assert.equal(t['held-out test top-1 (blind)']!.measured, '50.0%');
    assert.equal(t['held-out test top-1 (blind)']!.met, null);
    assert.equal(t['held-out test negated present']!.met, false);
    assert.ok(!formatFreeText(report([kase('v001', 1, 4)])).includes('held-out'));
  });

  it('two held-out sets are each reported under their own heading and name', () => {
    const r = report([kase('v001', 1, 4)], [kase('v501', 1, 2)]);
    r.heldOut.push({ ...report([kase('v701', 3, 1)]), set: { path: 'datasets/test-b.jsonl', sha256: '2', n: 1, conditions: 1 } });
    const out = formatFreeText(r);
    assert.match(out, /held-out set datasets\/test\.jsonl: 1 cases/);
    assert.match(out.split('held-out set datasets/test-b.jsonl')[1]!, /overall\s+1\s+0\.0 \/ 100\.0 \/ 100\.0/);
    const t = Object.fromEntries(freeTextTargets(r).map((x) => [x.name, x]));
    assert.equal(t['held-out test top-1 (blind)']!.measured, '100.0%');
    assert.equal(t['held-out test-b top-1 (blind)']!.measured, '0.0%');
  });
});

import assert from 'node:assert/strict';
import { accuracyMetrics, confusions, perDisease } from '../../src/eval/metrics.js';
import { auroc } from '../../src/eval/auroc.js';
import { gateStats } from '../../src/eval/gate-stats.js';
import { caseOf, hierarchySnapshot } from './eval-support.js';

describe('eval metrics', () => {
  const s = hierarchySnapshot();
  const cases = [
    caseOf(s, 'r1', 'Pneumonia', ['dis:pneumonia', 'dis:bronchitis']), // exact
    caseOf(s, 'r2', 'Pneumonia', ['dis:bronchitis', 'dis:pneumonia']), // same subcategory, top-3
    caseOf(s, 'r3', 'Common cold', ['dis:bronchitis', 'dis:stable-angina', 'dis:unstable-angina', 'dis:pneumonia', 'dis:urti']), // alias truth, same category, top-5 only
    caseOf(s, 'r4', 'Stable angina', ['dis:unstable-angina', 'dis:pneumonia', 'dis:urti']), // same ICD block I20, same subcategory
    caseOf(s, 'r5', 'Stable angina', ['dis:pneumonia']), // wrong everywhere
    caseOf(s, 'r6', 'Ebola', ['dis:pneumonia']), // not in the KG
  ];

  it('computes each level from hand-built predictions', () => {
    const m = accuracyMetrics(cases);
    assert.equal(m.n, 6);
    assert.equal(m.n_unknown_truth, 1);
    assert.equal(m.l3, 1 / 6);
    assert.equal(m.l2, 3 / 6); // r1, r2, r4
    assert.equal(m.l1, 4 / 6); // + r3
    assert.equal(m.top3, 2 / 6); // r1, r2
    assert.equal(m.top5, 3 / 6); // + r3
    assert.equal(m.l2_icd, 2 / 6); // r1 (same disease), r4 (I20)
    assert.equal(m.l1_icd, 4 / 6); // r1, r2, r3 (chapter X), r4 (IX)
  });

  it('keeps top-1 <= top-3 <= top-5 and L3 <= L2 <= L1 on any predictions', () => {
    const ids = ['dis:pneumonia', 'dis:bronchitis', 'dis:urti', 'dis:stable-angina', 'dis:unstable-angina'];
    const names = ['Pneumonia', 'Bronchitis', 'URTI', 'Stable angina', 'Unstable angina'];
    let x = 7;
    const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 50; trial++) {
      const cs = Array.from({ length: 20 }, (_, i) => {
        const ranked = [...ids].sort(() => rnd() - 0.5).slice(0, 1 + Math.floor(rnd() * 5));
        return caseOf(s, `r${i}`, names[Math.floor(rnd() * names.length)]!, ranked);
      });
      const m = accuracyMetrics(cs);
      assert.ok(m.l3! <= m.top3! && m.top3! <= m.top5!, JSON.stringify(m));
      assert.ok(m.l3! <= m.l2! && m.l2! <= m.l1!, JSON.stringify(m));
      assert.ok(m.l3! <= m.l2_icd! && m.l2_icd! <= m.l1_icd!, JSON.stringify(m));
      for (const v of Object.values(m)) if (typeof v === 'number' && v !== m.n && v !== m.n_unknown_truth) assert.ok(v >= 0 && v <= 1);
    }
  });

  it('gives null accuracies for no cases and null ICD levels without codes', () => {
    assert.equal(accuracyMetrics([]).l3, null);
    const noIcd = cases.map((c) => ({ ...c, truth: { ...c.truth, icdBlock: null, icdChapter: null } }));
    assert.equal(accuracyMetrics(noIcd).l2_icd, null);
  });

  it('reports per-disease accuracy and the most frequent mix-ups first', () => {
    const pd = perDisease(cases);
    const pneumonia = pd.find((d) => d.disease_id === 'dis:pneumonia')!;
    assert.deepEqual([pneumonia.n, pneumonia.l3, pneumonia.top3], [2, 0.5, 1]);
    assert.ok(pd.some((d) => d.disease_id === 'unknown:Ebola'));
    const more = [...cases, caseOf(s, 'r7', 'Stable angina', ['dis:pneumonia'])];
    const c = confusions(more);
    assert.deepEqual([c[0]!.truth, c[0]!.predicted, c[0]!.count], ['Stable angina', 'Pneumonia', 2]);
    assert.ok(c.every((x) => x.truth_id !== x.predicted_id));
    assert.ok(c.every((x, i) => i === 0 || c[i - 1]!.count >= x.count));
  });

  it('computes AUROC and gate statistics', () => {
    assert.equal(auroc([0.9, 0.8, 0.2, 0.1], [true, true, false, false]), 1);
    assert.equal(auroc([0.1, 0.2, 0.8, 0.9], [true, true, false, false]), 0);
    assert.equal(auroc([0.5, 0.5], [true, false]), 0.5);
    assert.equal(auroc([0.5, 0.7], [true, true]), null);
    assert.equal(gateStats(cases), null);
    const gated = cases.slice(0, 4).map((c, i) => ({ ...c, gate: { score: [0.9, 0.2, 0.1, 0.3][i]!, decision: i === 0 ? ('direct' as const) : ('retrieve' as const) } }));
    const g = gateStats(gated)!;
    assert.deepEqual([g.n, g.direct_share, g.direct_accuracy, g.retrieve_accuracy, g.auroc], [4, 0.25, 1, 0, 1]);
  });
});

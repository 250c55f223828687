import assert from 'node:assert/strict';
import type { DiagnosticKg } from '../../src/domain/kg.js';
import { KgConsistencyError } from '../../kg-build/errors.js';
import { checkKg } from '../../kg-build/graph-checks.js';

function kg(): DiagnosticKg {
  const f = (id: string) => ({ id, text: id, kind: 'ehr' as const, code: null, valueCode: null, question: null, valueText: null, antecedent: null });
  return {
    categories: [{ id: 'cat:c', name: 'c' }],
    subcategories: [{ id: 'sub:s', name: 's', categoryId: 'cat:c' }],
    diseases: [
      { id: 'dis:a', name: 'a', subcategoryId: 'sub:s', icd10: null, recordCount: 2, aliases: [] },
      { id: 'dis:b', name: 'b', subcategoryId: 'sub:s', icd10: null, recordCount: 2, aliases: [] },
    ],
    features: [f('feat:1'), f('feat:2')],
    manifestations: [
      { diseaseId: 'dis:a', featureId: 'feat:1', prevalence: 1, count: 2, source: 'ehr' },
      { diseaseId: 'dis:b', featureId: 'feat:1', prevalence: 0.5, count: 1, source: 'ehr' },
      { diseaseId: 'dis:b', featureId: 'feat:2', prevalence: 0.5, count: 1, source: 'ehr' },
    ],
    keyDifferences: [{ id: 'kd:1', diseaseId: 'dis:b', contrastsWith: ['dis:a'], text: 't', featureId: 'feat:2', prevalenceIn: 0.5, prevalenceSiblings: 0, source: 'statistical' }],
  };
}

function problems(k: DiagnosticKg): string[] {
  try {
    checkKg(k);
    return [];
  } catch (e) {
    assert.ok(e instanceof KgConsistencyError);
    return e.problems;
  }
}

describe('kg-build graph-checks (graphology)', () => {
  it('a consistent KG passes and yields feature degrees (number of diseases)', () => {
    const { graph, degree } = checkKg(kg());
    assert.equal(degree.get('feat:1'), 2);
    assert.equal(degree.get('feat:2'), 1);
    assert.equal(graph.order, 2 + 2 + 1 + 1 + 1);
  });

  it('finds orphan features, duplicate ids, dangling edges and tier mistakes', () => {
    const orphan = kg();
    orphan.features.push({ ...orphan.features[0]!, id: 'feat:3' });
    assert.deepEqual(problems(orphan), ['orphan feature feat:3 (no disease has it)']);

    const dup = kg();
    dup.features.push({ ...dup.features[0]! });
    assert.ok(problems(dup).includes('duplicate id feat:1'));

    const dangling = kg();
    dangling.manifestations.push({ diseaseId: 'dis:zzz', featureId: 'feat:1', prevalence: 1, count: 1, source: 'ehr' });
    assert.ok(problems(dangling).some((p) => p.includes('unknown Disease dis:zzz')));

    const wrongTier = kg();
    wrongTier.diseases[0]!.subcategoryId = 'cat:c';
    assert.ok(problems(wrongTier).some((p) => p.includes('cat:c is not a Subcategory')));

    const badPrev = kg();
    badPrev.manifestations[0]!.prevalence = 1.5;
    assert.ok(problems(badPrev).some((p) => p.includes('out of [0,1]')));
  });
});

import { strict as assert } from 'node:assert';
import { differencesKg } from '../../src/query/differences-kg.js';
import { manifestationStrength } from '../../src/query/manifestation-strength.js';

const edge = (objectId: string, weight: number, extra: Record<string, unknown> = {}) => ({ relation: 'HAS_MANIFESTATION', object: objectId, objectId, weight, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, ...extra });

/** A subcategory of two diseases, as cypher/query/differences-kg.cypher returns it. */
function fakeGraph() {
  const cough = { object: 'Do you have a cough? yes', question: 'Do you have a cough?', valueText: 'yes' };
  const rows = [
    {
      disease: 'A', diseaseId: 'dis:a',
      manifestations: [edge('shared', 0.9, cough), edge('own', 0.6), edge('rare', 0.2), edge('half', 0.5), edge('ua', 0.8)],
      differences: [{ relation: 'HAS_KEY_DIFFERENCE', object: 'pain location: thyroid cartilage: 81% in A vs 0% in B', objectId: 'site', weight: 0.81, featureText: 'pain location: thyroid cartilage', code: 'E_55', valueCode: 'V_33', question: 'Do you feel pain somewhere?', valueText: 'thyroid cartilage' }],
    },
    { disease: 'B', diseaseId: 'dis:b', manifestations: [edge('shared', 0.9, cough), edge('half', 0.45)], differences: [] },
  ];
  return { read: async () => rows };
}

describe('differences KG: manifestations worth showing (issue 48 item 3)', () => {
  it('p(f|d) x lift over siblings: common in the disease and rarer in its siblings first', () => {
    assert.ok(manifestationStrength(0.6, 0) > manifestationStrength(0.9, 0.9), 'own at 60% beats one every sibling shares at 90%');
    assert.ok(manifestationStrength(0.9, 0.9) > manifestationStrength(0.5, 0.45));
    assert.ok(manifestationStrength(0.8, 0.1) > manifestationStrength(0.4, 0.1), 'more common in the disease, same siblings: stronger');
  });

  it('shows only manifestations present in at least 30% of the records, strongest first, with clinical labels', async () => {
    const { triples } = await differencesKg(fakeGraph(), { subcategoryId: 's', perDisease: 3 });
    const of = (id: string, rel: string) => triples.filter((t) => t.subjectId === id && t.relation === rel);
    assert.deepEqual(of('dis:a', 'HAS_MANIFESTATION').map((t) => t.objectId), ['own', 'shared', 'half'], 'the 20% one is not shown, nor "ua" (no readable label)');
    assert.ok(triples.every((t) => t.relation !== 'HAS_MANIFESTATION' || t.weight! >= 0.3));
    assert.equal(of('dis:a', 'HAS_MANIFESTATION')[1]!.object, 'Cough', 'no question, no glued answer');
    assert.deepEqual(of('dis:a', 'HAS_KEY_DIFFERENCE').map((t) => t.object), ['Pain at thyroid cartilage: 81% in A vs 0% in B']);
    assert.deepEqual(of('dis:b', 'HAS_MANIFESTATION').map((t) => t.objectId), ['shared', 'half']);
    const one = await differencesKg(fakeGraph(), { subcategoryId: 's', perDisease: 1 });
    assert.deepEqual(one.triples.filter((t) => t.relation === 'HAS_MANIFESTATION').map((t) => t.objectId), ['own', 'shared']);
  });
});

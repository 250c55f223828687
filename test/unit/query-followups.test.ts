import { strict as assert } from 'node:assert';
import { SigmaRanker, questionText } from '../../src/query/followups-sigma.js';
import { sigma } from '../../src/query/discriminability.js';
import { buildSnapshot } from '../../src/query/kg-snapshot.js';
import { tinyKg } from '../support/query-kg.js';

describe('query: follow-ups by discriminability (eq. 15-16)', () => {
  it('sigma = (n-1)/deg', async () => {
    const { snapshot } = await tinyKg();
    const n = snapshot.features.length;
    const idx = (t: string) => snapshot.features.findIndex((x) => x.text === t);
    assert.equal(sigma(snapshot, idx('fever')), (n - 1) / 3);
    assert.equal(sigma(snapshot, idx('rash')), n - 1);
  });

  it('ranks unreported features of the candidates, highest sigma first, prevalence breaking ties', async () => {
    const { snapshot } = await tinyKg();
    const d = (name: string) => snapshot.diseases.findIndex((x) => x.name === name);
    const fever = snapshot.features.find((x) => x.text === 'fever')!.id;
    const out = new SigmaRanker().rank({ snapshot, candidateDiseases: [d('Flu'), d('Measles')], reportedFeatureIds: new Set([fever]), limit: 10 });
    // cough (Flu 4/4), rash (Measles 2/2) and sore throat (Flu 2/4) all have deg 1: prevalence orders them.
    assert.deepEqual(out.map((q) => q.text), ['Cough?', 'Rash?', 'Sore throat?']);
    assert.ok(out.every((q) => q.ranker === 'sigma' && q.score === snapshot.features.length - 1));
    const limited = new SigmaRanker().rank({ snapshot, candidateDiseases: [d('Flu')], reportedFeatureIds: new Set(), limit: 1 });
    assert.deepEqual(limited.map((q) => q.text), ['Cough?'], 'deg 1 beats fever (deg 3)');
  });

  it('asks coded features in the clinical voice (a value as its label) and skips questions already answered', async () => {
    const fx = await tinyKg();
    const features = fx.snapshot.features.map((f) =>
      f.text === 'rash' ? { ...f, code: 'E_133', valueCode: 'V_108', question: 'Where is the affected region located?', valueText: 'cheek(R)' }
        : f.text === 'fever' ? { ...f, code: 'E_133', valueCode: 'V_53', question: 'Where is the affected region located?', valueText: 'side of the neck(R)' } : f,
    );
    const s = fx.snapshot;
    const kg = { categories: s.categories, subcategories: s.subcategories, diseases: s.diseases, features, manifestations: s.diseases.flatMap((d, di) => [...s.manifestations[di]!.features].map((fi, k) => ({ diseaseId: d.id, featureId: s.features[fi]!.id, prevalence: s.manifestations[di]!.prevalence[k]!, count: s.manifestations[di]!.counts[k]!, source: 'ehr' as const }))) };
    const snap = buildSnapshot(kg);
    const rash = snap.featureIndex.get(features.find((f) => f.valueText === 'cheek(R)')!.id)!;
    assert.equal(questionText(snap, rash), 'Rash at right cheek?', 'DDXPlus E_133 V_108 restated from the reviewed voice file');
    const measles = snap.diseases.findIndex((x) => x.name === 'Measles');
    const neck = features.find((f) => f.valueText === 'side of the neck(R)')!.id;
    const out = new SigmaRanker().rank({ snapshot: snap, candidateDiseases: [measles], reportedFeatureIds: new Set([neck]), limit: 5 });
    assert.deepEqual(out, [], 'E_133 already answered');
  });
});

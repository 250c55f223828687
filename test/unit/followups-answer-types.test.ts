import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { FollowupModel, type FollowupFeature, type FollowupKg } from '../../src/followups/model.js';
import { buildQuestionCatalogue } from '../../src/followups/question-model.js';
import { loadDdxplusDictionary } from '../../src/sources/ddxplus/dictionary.js';
import { ddxplusAnswerType, renderFinding } from '../../src/sources/ddxplus/render.js';
import { fixtureKg } from '../support/followups-kg.js';

const DIR = fileURLToPath(new URL('../../datasets/ddxplus', import.meta.url));

const feat = (id: string, code: string, valueCode: string, extra: Partial<FollowupFeature> = {}): FollowupFeature => ({
  id, text: `Pain at ${valueCode}`, code, valueCode, question: 'Where is the pain?', valueText: valueCode, antecedent: false, ...extra,
});

/** Two diseases of 10 records; question E_9 with values x, y; `counts` per disease and value. */
function kg(counts: { x: [number, number]; y: [number, number] }, extra: Partial<FollowupFeature> = {}): FollowupKg {
  return {
    diseases: [{ id: 'dis:a', name: 'A', recordCount: 10 }, { id: 'dis:b', name: 'B', recordCount: 10 }],
    features: [feat('f:x', 'E_9', 'V_x', extra), feat('f:y', 'E_9', 'V_y', extra)],
    manifestations: (['x', 'y'] as const).flatMap((v) => ['dis:a', 'dis:b'].map((d, i) => ({ diseaseId: d, featureId: `f:${v}`, count: counts[v][i]!, prevalence: counts[v][i]! / 10 }))),
  };
}
const typeOf = (k: FollowupKg) => {
  const model = new FollowupModel(k);
  return buildQuestionCatalogue(model.features, { counts: model }).byId.get('q:E_9')!.answerType;
};

describe('follow-ups: answer types from the KG', () => {
  it('DDXPlus data_type B / C / M → yes-no / one-of (number when numeric) / several-of, on every rendered finding', async () => {
    const dict = await loadDdxplusDictionary(DIR);
    const seen = new Set<string>();
    for (const [code, ev] of dict.evidences) {
      const expected = ev.data_type === 'B' ? 'yes-no' : ev.data_type === 'M' ? 'several-of' : typeof ev['possible-values'][0] === 'number' ? 'number' : 'one-of';
      assert.equal(ddxplusAnswerType(ev), expected, code);
      seen.add(expected);
      const value = ev.data_type === 'B' ? null : typeof ev['possible-values'][0] === 'number' ? { kind: 'number' as const, raw: String(ev['possible-values'][0]) } : { kind: 'code' as const, code: String(ev['possible-values'][0]) };
      const f = renderFinding({ code, value } as never, ev);
      assert.ok(f.ok, code);
      if (f.ok) assert.equal(f.value.answerType, expected, code);
    }
    assert.deepEqual([...seen].sort(), ['number', 'one-of', 'several-of', 'yes-no'], 'the dictionary has all four types');
  });
  it('a type the features carry (set by the build) decides the question type', () => {
    assert.equal(typeOf(kg({ x: [9, 9], y: [9, 9] }, { answerType: 'one-of' })), 'one-of', 'declared, although counts say several');
    assert.equal(typeOf(kg({ x: [1, 1], y: [1, 1] }, { answerType: 'several-of' })), 'several-of');
  });
  it('undeclared: several-of when some disease has more value mentions than records, else one-of', () => {
    assert.equal(typeOf(kg({ x: [6, 0], y: [5, 3] })), 'several-of', 'disease A: 11 mentions in 10 records');
    assert.equal(typeOf(kg({ x: [6, 0], y: [4, 3] })), 'one-of', 'at most one value per record as far as counts tell');
  });
  it('undeclared numeric values ask for a number; yes/no stays yes/no', () => {
    const model = new FollowupModel(fixtureKg());
    const c = buildQuestionCatalogue(model.features, { counts: model });
    assert.equal(c.byId.get('q:E_5')!.answerType, 'number');
    assert.equal(c.byId.get('q:E_2')!.answerType, 'yes-no');
    assert.equal(c.byId.get('q:E_4')!.answerType, 'one-of', 'chest and back never co-occur beyond the record counts');
  });
});

describe('follow-ups: single-value choice questions', () => {
  it('a choice question with one value in the graph is asked as yes/no about that value', () => {
    const k = kg({ x: [5, 0], y: [0, 0] }, { answerType: 'one-of', text: 'Pain at chest', question: 'Where is the pain?', valueText: 'chest' });
    k.features = k.features.filter((f) => f.id === 'f:x');
    k.manifestations = k.manifestations.filter((m) => m.featureId === 'f:x');
    const model = new FollowupModel(k);
    const q = buildQuestionCatalogue(model.features, { counts: model }).byId.get('q:E_9')!;
    assert.equal(q.answerType, 'yes-no');
    assert.equal(q.text, 'Pain at chest?', 'asked about the value, as its label');
    assert.deepEqual(q.options.map((o) => o.featureId), ['f:x']);
  });
});

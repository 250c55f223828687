import { strict as assert } from 'node:assert';
import type { DiseaseNode, FeatureNode } from '../../src/domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankWithProbability } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { declaredUnseen } from '../../src/reasoners/scoring-declared.js';
import { knowledgeUnseen } from '../../src/reasoners/scoring-knowledge.js';
import { nbTables } from '../../src/reasoners/scoring-naive-bayes.js';

/**
 * Issue 48: a finding a disease's records never showed is priced from the source's known rate k
 * as if it were m more records, p = (m·k + α) / (n' + m + 2α), n' = 0 where the source's
 * dictionary never asked (src/reasoners/scoring-knowledge.ts); for free text only.
 */
// DDXPlus-style yes/no features: a code, no value code (what yesNoFeatureOf finds).
// p0 of a 20-record disease at α (scoring-naive-bayes.ts): the price without knowledge.
const P0_OF = (n: number, a: number) => a / (n + 2 * a);
const yesNo = (code: string, text: string): FeatureNode => ({ id: `feat:${code}`, text, kind: 'ehr', code, valueCode: null, question: `${text}?`, valueText: null, antecedent: false, answerType: 'yes-no' });
const disease = (id: string, recordCount: number, extra: Partial<DiseaseNode> = {}): DiseaseNode => ({ id, name: id, subcategoryId: 'sub:all', icd10: null, recordCount, aliases: [], ...extra });
const edge = (d: string, code: string, count: number, n: number) => ({ diseaseId: d, featureId: `feat:${code}`, prevalence: count / n, count, source: 'ehr' as const });

// Sarcoidosis: 20 records, lymph nodes in 12; DDXPlus declares lymph nodes and fever, never cough.
// Orphanet knows cough 0.545, fever 0.17, lymph nodes 0.545, and E_999 (no feature in this KG).
// Pneumonia: 20 records, cough in 6; bronchitis: 20 records, cough in 2. Nobody knows anything of them.
function kg(sarcoid: Partial<DiseaseNode> = {}, opts: { fromNotes?: boolean } = {}): KgSnapshot {
  return buildSnapshot({
    categories: [{ id: 'cat:all', name: 'all' }],
    subcategories: [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
    diseases: [
      disease('dis:sarcoidosis', 20, { declaredEvidence: ['E_9', 'E_91'], knownEvidence: ['E_201', 'E_9', 'E_91', 'E_999'], knownRates: [0.545, 0.545, 0.17, 0.9], knowledgeSource: 'ORPHA:797', ...sarcoid }),
      disease('dis:pneumonia', 20, { declaredEvidence: ['E_201', 'E_91'] }),
      disease('dis:bronchitis', 20),
    ],
    features: [yesNo('E_201', 'cough'), yesNo('E_9', 'swollen lymph nodes'), yesNo('E_91', 'fever')].map((f) => (opts.fromNotes ? { ...f, fromNotes: true } : f)),
    manifestations: [edge('dis:sarcoidosis', 'E_9', 12, 20), edge('dis:pneumonia', 'E_201', 6, 20), edge('dis:pneumonia', 'E_91', 15, 20), edge('dis:bronchitis', 'E_201', 2, 20)],
  });
}
const COUGH = 0;
const FEVER = 2;
const ALPHA = 0.03;
const P0 = P0_OF(20, ALPHA);
const price = (out: ReadonlyMap<number, readonly number[]>, f: number) => {
  const e = out.get(f);
  assert.ok(e, `feature ${f} priced`);
  assert.ok(Math.abs(Math.exp(e[0]!) + Math.exp(e[1]!) - 1) < 1e-12, 'log p and log(1 − p) agree');
  return Math.exp(e[0]!);
};
const near = (got: number, want: number, what: string) => assert.ok(Math.abs(got - want) < 1e-12, `${what}: ${got} ≠ ${want}`);

describe('scoring: knowledge where the records are silent (issue 48)', () => {
  it('a finding DDXPlus never asked about sarcoidosis is priced from Orphanet’s rate as m records, over no records of its own', () => {
    const out = new Map<number, readonly [number, number]>();
    knowledgeUnseen(kg(), 0, { alpha: ALPHA, m: 10, basePrice: () => P0 }, out);
    near(price(out, COUGH), (10 * 0.545 + ALPHA) / (0 + 10 + 2 * ALPHA), 'cough, undeclared: n′ = 0');
    near(price(out, FEVER), (10 * 0.17 + ALPHA) / (20 + 10 + 2 * ALPHA), 'fever, declared but never seen: n′ = n');
    assert.ok(!out.has(1), 'lymph nodes: the records show them, their count stands');
    assert.equal(out.size, 2, 'E_999 has no feature in this KG: nothing');
  });

  it('a source that declares nothing for the disease leaves n′ = n for every finding', () => {
    const out = new Map<number, readonly [number, number]>();
    knowledgeUnseen(kg({ declaredEvidence: null }), 0, { alpha: ALPHA, m: 10, basePrice: () => P0 }, out);
    near(price(out, COUGH), (10 * 0.545 + ALPHA) / (20 + 10 + 2 * ALPHA), 'cough');
  });

  it('m = 0, or a disease without knowledge, changes nothing', () => {
    const s = kg();
    for (const [d, m] of [[0, 0], [1, 10], [2, 10]] as const) {
      const out = new Map<number, readonly [number, number]>([[FEVER, [Math.log(0.01), Math.log(0.99)]]]);
      knowledgeUnseen(s, d, { alpha: ALPHA, m, basePrice: () => P0 }, out);
      assert.deepEqual([...out], [[FEVER, [Math.log(0.01), Math.log(0.99)]]], `disease ${d}, m = ${m}`);
    }
  });

  it('a larger price already set (pδ of a declared finding in a thin sample) is kept; a smaller one is raised', () => {
    const thin = kg({ recordCount: 1 });
    const out = declaredUnseen(thin, 0); // fever declared, unseen: 1/(n + 2) = 1/3
    near(price(out, FEVER), 1 / 3, 'pδ');
    knowledgeUnseen(thin, 0, { alpha: ALPHA, m: 10, basePrice: () => P0 }, out);
    near(price(out, FEVER), 1 / 3, 'kept: (10·0.17 + α)/(1 + 10 + 2α) ≈ 0.16 is smaller');
    const wide = kg({ recordCount: 200 });
    const out2 = declaredUnseen(wide, 0); // 1/202
    knowledgeUnseen(wide, 0, { alpha: ALPHA, m: 10, basePrice: () => P0 }, out2);
    near(price(out2, FEVER), (10 * 0.17 + ALPHA) / (200 + 10 + 2 * ALPHA), 'raised from 1/202');
  });

  it('a known rate that would price a finding below p0 is not used: knowledge never lowers a price', () => {
    const s = kg({ knownRates: [0.545, 0.545, 0.0001, 0.9], declaredEvidence: null });
    const out = new Map<number, readonly [number, number]>();
    knowledgeUnseen(s, 0, { alpha: ALPHA, m: 10, basePrice: () => 0.01 }, out);
    assert.equal(out.has(FEVER), false, 'fever at (10·0.0001 + α)/(20 + 10 + 2α) ≈ 0.001 < p0 = 0.01');
    assert.equal(out.has(COUGH), true, 'cough at ≈ 0.18 > p0');
  });
});

describe('tables: a priced unseen finding replaces its term in the unreported sum with the feature’s own share', () => {
  // Review of issue 48: the sum took a known (or declared) finding at share 1 over a coded p0, but in the text
  // view of a KG of codes and notes every feature weighs γ_notes, over the notes' p0.
  for (const fromNotes of [false, true]) {
    it(fromNotes ? 'features read as notes (a text view): γ_notes · (log(1 − p_k) − log(1 − p0_notes))' : 'coded features: 1 · (log(1 − p_k) − log(1 − p0))', () => {
      const s = kg({}, { fromNotes });
      const params = { ...DEFAULT_EVIDENCE_OPTIONS, notesBackoff: 0 };
      const off = nbTables(s, { ...params, declared: false, knowledge: 0 });
      const on = nbTables(s, { ...params, declared: false, knowledge: 10 });
      const share = fromNotes ? DEFAULT_EVIDENCE_OPTIONS.notesUnreportedWeight! : 1;
      const l1Base = fromNotes ? off.log1mP0Notes[0]! : off.log1mP0[0]!;
      const want = [...on.declaredUnseen[0]!.values()].reduce((a, [, l1]) => a + share * (l1 - l1Base), 0);
      assert.equal(on.declaredUnseen[0]!.size, 2, 'cough and fever priced');
      near(on.allAbsent[0]! - off.allAbsent[0]!, want, 'the sum moves by the share times the change of log(1 − p)');
      near(on.allAbsent[1]!, off.allAbsent[1]!, 'pneumonia: untouched');
    });
  }
});

describe('reasoner: free text priced with the known rates, coded answers not', () => {
  function ctx(s: KgSnapshot, text: string | null): ReasonerContext {
    const input = { text, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS };
    const matches = [{ findingIndex: 0, featureId: 'feat:E_201', featureText: 'cough', similarity: 1, polarity: 'present' as const }];
    return { input, findings: [], matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: s, signal: null };
  }
  const run = (text: string | null, knowledgeRecords: number) => {
    const seen: Float64Array[] = [];
    const { differential } = rankWithProbability(ctx(kg(), text), { ...DEFAULT_EVIDENCE_OPTIONS, knowledgeRecords }, (x) => seen.push(x.scores));
    return { order: differential.map((r) => r.diseaseId), scores: [...seen[0]!] };
  };

  it('a patient who writes "I cough" finds sarcoidosis, whose records never coughed, higher with knowledge than without', () => {
    const without = run('I have a cough', 0);
    const withK = run('I have a cough', 10);
    assert.ok(withK.order.indexOf('dis:sarcoidosis') < without.order.indexOf('dis:sarcoidosis'), `${without.order} → ${withK.order}`);
    assert.equal(without.order.at(-1), 'dis:sarcoidosis', 'without knowledge: last, its cough at p0');
    assert.equal(withK.order[0], 'dis:sarcoidosis', 'with: first (0.545 against 0.3 and 0.1, with lymph nodes unsaid)');
    assert.ok(withK.scores[0]! - withK.scores[1]! > without.scores[0]! - without.scores[1]!, 'sarcoidosis gains on pneumonia');
    assert.deepEqual(withK.scores.slice(1), without.scores.slice(1), 'diseases without knowledge score as before');
  });

  it('a coded answer (no text, or only blanks) scores the same whatever knowledgeRecords is', () => {
    for (const text of [null, '   ']) assert.deepEqual(run(text, 10), run(text, 0), JSON.stringify(text));
  });
});

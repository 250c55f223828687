import { strict as assert } from 'node:assert';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { DEFAULT_OPTIONS, type FeatureMatch } from '../../src/query/contracts.js';
import { EvidenceReasoner, type EvidenceReasonerOptions } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { attachDeclaredEvidence } from '../../kg-build/declared-evidence.js';
import { kgFromRecords } from '../support/snapshot-fixture.js';
import { nbScore, nbTables, type ReportedFeature } from '../../src/reasoners/scoring-naive-bayes.js';
import { withImpliedParents } from '../../src/reasoners/implied-parents.js';
import type { NormalizedRecord } from '../../src/domain/record.js';

/**
 * The evidence reasoner's robust free-text scoring (scoring-naive-bayes.ts): declared-but-unseen
 * features priced by Laplace, the background mixture for short descriptions, and a finding's
 * alternatives scored as one observation. Yes/no findings carry DDXPlus-like codes here.
 */
const coded = (code: string) => ({ text: `${code}? yes`, polarity: 'present' as const, code, valueCode: null, question: `${code}?`, valueText: null, antecedent: false });
const rec = (id: string, diagnosis: string, codes: string[]): NormalizedRecord => ({ id, diagnosis, icd10: null, age: null, sex: null, findings: codes.map(coded), text: codes.join('\n'), location: id, differential: null, initialFindingCode: null });

/** Common: 40 records, always cough + fever, wheeze in 10, runny nose in 1. Rare: one record, cough + runny nose; the source declares wheeze for it. */
function kg(declared: boolean): KgSnapshot {
  const recs = [
    ...Array.from({ length: 40 }, (_, i) => rec(`c${i}`, 'Common', i < 10 ? ['cough', 'fever', 'wheeze'] : i === 10 ? ['cough', 'fever', 'runny'] : ['cough', 'fever'])),
    rec('r0', 'Rare', ['cough', 'runny']),
  ];
  const base = kgFromRecords(recs);
  const diseaseOf = new Map(base.diseases.map((d) => [d.name, d.id] as const));
  const withDeclared = declared ? attachDeclaredEvidence({ diseases: base.diseases, diseaseOf }, (name) => (name === 'Rare' ? ['cough', 'runny', 'wheeze'] : null)).diseases : base.diseases;
  return buildSnapshot({ ...base, diseases: withDeclared.map((d, i) => ({ ...d, subcategoryId: base.diseases[i]!.subcategoryId })) }, 't');
}

function ctx(s: KgSnapshot, found: { code: string; group?: string; polarity?: 'present' | 'absent' }[]): ReasonerContext {
  const matches: FeatureMatch[] = found.map((f, i) => {
    const feat = s.features.find((x) => x.code === f.code)!;
    return { findingIndex: i, featureId: feat.id, featureText: feat.text, similarity: 1, polarity: f.polarity ?? 'present', ...(f.group ? { alternatives: f.group } : {}) };
  });
  return { input: { text: null, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS }, findings: [], matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: s, signal: null };
}

const top = async (s: KgSnapshot, found: Parameters<typeof ctx>[1], o: Partial<EvidenceReasonerOptions> = {}) => (await new EvidenceReasoner({ demographicWeight: 0, ...o }).reason(ctx(s, found))).differential;
const scoreOf = (d: { disease: string; score: number }[], name: string) => d.find((x) => x.disease === name)!.score;

describe('evidence reasoner: robust scoring of short free text', () => {
  it('attachDeclaredEvidence unions the codes of the raw names clustered into a disease, and leaves unknown ones null', () => {
    const clusters = { diseases: [{ id: 'dis:a', name: 'A', icd10: null, recordCount: 2, aliases: ['A', 'a2'] }, { id: 'dis:b', name: 'B', icd10: null, recordCount: 1, aliases: ['B'] }], diseaseOf: new Map([['A', 'dis:a'], ['a2', 'dis:a'], ['B', 'dis:b']]) };
    const out = attachDeclaredEvidence(clusters, (raw) => ({ A: ['E_1', 'E_2'], a2: ['E_2', 'E_3'] })[raw] ?? null);
    assert.deepEqual(out.diseases.map((d) => d.declaredEvidence), [['E_1', 'E_2', 'E_3'], null]);
    assert.equal(attachDeclaredEvidence(clusters, null), clusters);
  });

  it('a one-record disease is not ruled out by a feature its source declares but its record lacks', async () => {
    const found = [{ code: 'cough' }, { code: 'runny' }, { code: 'wheeze' }];
    // λ = 0: the three findings are as long as a typical record, which would count Common's unreported fever as absent.
    const plain = await top(kg(false), found, { noise: 0, unreportedWeight: 0 });
    const declared = await top(kg(true), found, { noise: 0, unreportedWeight: 0 });
    assert.equal(plain[0]!.disease, 'Common');
    assert.equal(declared[0]!.disease, 'Rare');
  });

  it('declared evidence changes nothing when switched off, nor for features the records already count', async () => {
    const found = [{ code: 'cough' }, { code: 'fever' }];
    assert.deepEqual(await top(kg(true), found, { declared: false }), await top(kg(false), found, { declared: false }));
    // Reported terms: cough and fever are counted for Common, and fever is not declared for Rare (λ = 0 isolates them).
    const a = await top(kg(true), found, { unreportedWeight: 0 });
    const b = await top(kg(false), found, { unreportedWeight: 0 });
    assert.equal(a[0]!.disease, b[0]!.disease);
    assert.ok(Math.abs(scoreOf(a, 'Common') - scoreOf(b, 'Common')) < 1e-9);
  });

  it('the background mixture softens a finding the disease never showed, in a short description only', async () => {
    const s = kg(false);
    const short = [{ code: 'cough' }, { code: 'runny' }];
    const hard = await top(s, short, { noise: 0 });
    const soft = await top(s, short, { noise: 0.3 });
    assert.ok(scoreOf(soft, 'Common') > scoreOf(hard, 'Common'), 'Common never showed "runny": the mixture makes it less impossible');
    // A description as long as a typical record is complete: ε·(1 − completeness) = 0, the plain model.
    const full = [{ code: 'cough' }, { code: 'fever' }, { code: 'wheeze' }, { code: 'runny' }];
    assert.deepEqual(await top(s, full, { noise: 0.3 }), await top(s, full, { noise: 0 }));
  });

  it("a finding's alternatives count as one observation: the log of their mean probability", () => {
    const s = kg(false);
    const t = nbTables(s, { alpha: 0.03, minRecords: 5 });
    const f = (code: string) => s.features.findIndex((x) => x.code === code);
    const rare = s.diseases.findIndex((d) => d.name === 'Rare');
    const reported: ReportedFeature[] = [
      { feature: f('runny'), present: true, weight: 0.5, group: 1 },
      { feature: f('wheeze'), present: true, weight: 0.5, group: 1 },
    ];
    const m = s.manifestations[rare]!;
    const pRunny = Math.exp(t.logP[rare]![m.position.get(f('runny'))!]!);
    const pWheeze = Math.exp(t.logP0[rare]!); // the one record never wheezed
    const product = nbScore(s, t, rare, reported, { unreportedWeight: 0, mixture: false }).score - t.logPrior[rare]!;
    const mixture = nbScore(s, t, rare, reported, { unreportedWeight: 0, mixture: true }).score - t.logPrior[rare]!;
    assert.ok(Math.abs(product - 0.5 * (Math.log(pRunny) + Math.log(pWheeze))) < 1e-9);
    assert.ok(Math.abs(mixture - Math.log((pRunny + pWheeze) / 2)) < 1e-9);
    assert.ok(mixture > product + 1, 'one fitting alternative is enough');
  });
});

describe('evidence reasoner: implied parent questions', () => {
  it('a present follow-on answer reports its parent yes once, with the heaviest child weight; a reported parent is left alone', () => {
    const recs = [rec('a', 'A', ['pain', 'cough'])];
    const base = kgFromRecords(recs);
    const site = (v: string) => ({ id: `feat:site-${v}`, text: `pain location: ${v}`, kind: 'ehr' as const, code: 'site', valueCode: v, question: 'where?', valueText: v, antecedent: false, parentCode: 'pain' });
    const s = buildSnapshot({ ...base, features: [...base.features, site('ear'), site('jaw')] }, 't');
    const f = (id: string) => s.featureIndex.get(id)!;
    const pain = s.features.findIndex((x) => x.code === 'pain');
    const out = withImpliedParents(s, [
      { feature: f('feat:site-ear'), present: true, weight: 0.4, group: 1 },
      { feature: f('feat:site-jaw'), present: true, weight: 0.9, group: 2 },
    ]);
    assert.deepEqual(out.slice(2), [{ feature: pain, present: true, weight: 0.9, group: 3 }]);
    // "No pain" stays absent even with a site named; an absent child implies nothing.
    const denied = withImpliedParents(s, [{ feature: pain, present: false, weight: 1, group: 1 }, { feature: f('feat:site-ear'), present: true, weight: 1, group: 2 }]);
    assert.equal(denied.length, 2);
    assert.equal(withImpliedParents(s, [{ feature: f('feat:site-ear'), present: false, weight: 1, group: 1 }]).length, 1);
  });
});

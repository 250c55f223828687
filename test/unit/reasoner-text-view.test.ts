import assert from 'node:assert/strict';
import type { DiseaseNode, FeatureNode, NotesMentionEdge } from '../../src/domain/kg.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankWithProbability } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { nbTables } from '../../src/reasoners/scoring-naive-bayes.js';
import { nbScoresAll } from '../../src/reasoners/scoring-sparse.js';
import { textView } from '../../src/reasoners/text-view.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';

/**
 * Issue 24: a DDXPlus + notes KG reads free text against how each disease's notes speak of a
 * feature (src/reasoners/text-view.ts), and coded answers against the coded rate, unchanged.
 */
const feature = (id: string, fromNotes = false): FeatureNode => ({ id, text: id, kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: null, ...(fromNotes ? { fromNotes: true } : {}) });
const disease = (id: string, recordCount: number, notedRecords?: number): DiseaseNode => ({ id, name: id, subcategoryId: 'sub:all', icd10: null, recordCount, aliases: [], ...(notedRecords ? { notedRecords } : {}) });

// Chagas: 8 coded records (fever in all 8) and 4 notes (fever written in 1, kissing bugs in 3).
// Malaria: 10 coded records, fever in 9, no notes.
function kg(mentions: NotesMentionEdge[] | undefined): KgSnapshot {
  return buildSnapshot({
    categories: [{ id: 'cat:all', name: 'all' }],
    subcategories: [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
    diseases: [disease('dis:chagas', 12, mentions ? 4 : undefined), disease('dis:malaria', 10)],
    features: [feature('feat:fever'), feature('feat:bugs', true)],
    manifestations: [
      { diseaseId: 'dis:chagas', featureId: 'feat:fever', prevalence: 1, count: 8, source: 'ehr' },
      { diseaseId: 'dis:chagas', featureId: 'feat:bugs', prevalence: 0.25, count: 3, source: 'ehr' },
      { diseaseId: 'dis:malaria', featureId: 'feat:fever', prevalence: 0.9, count: 9, source: 'ehr' },
    ],
    ...(mentions ? { notesMentions: mentions } : {}),
  });
}
const mixed = () => kg([{ diseaseId: 'dis:chagas', featureId: 'feat:fever', count: 1 }, { diseaseId: 'dis:chagas', featureId: 'feat:bugs', count: 3 }]);
const params = { alpha: 0.03, notesAlpha: 0.3, minRecords: 5, declared: false, notesCodedPrior: 4 };

function ctx(s: KgSnapshot, text: string | null): ReasonerContext {
  const input = { text, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS };
  const matches = [{ findingIndex: 0, featureId: 'feat:fever', featureText: 'fever', similarity: 1, polarity: 'present' as const }];
  return { input, findings: [], matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: s, signal: null };
}

describe('reasoner: the text view of a KG of coded records and notes (issue 24)', () => {
  it('is null for a KG with no disease of both kinds', () => assert.equal(textView(kg(undefined), params), null));

  it('prices a mixed disease’s feature at (c_notes + m·p_coded + α_notes) / (n_notes + m + 2α_notes), others as they are', () => {
    const s = mixed();
    const view = textView(s, params)!;
    const pCoded = Math.exp(nbTables(s, params).logP[0]![s.manifestations[0]!.position.get(0)!]!);
    const at = (v: KgSnapshot, d: number, f: number) => v.manifestations[d]!.prevalence[v.manifestations[d]!.position.get(f)!]!;
    assert.ok(Math.abs(at(view, 0, 0) - (1 + 4 * pCoded + 0.3) / (4 + 4 + 0.6)) < 1e-6, 'fever: written in 1 of 4 notes, shrunk towards the coded 100%');
    assert.ok(at(view, 0, 0) < pCoded - 0.3, 'well below the coded rate');
    assert.equal(at(view, 1, 0), at(s, 1, 0), 'malaria has no notes: its coded rate stands');
    assert.equal(view.manifestations[0]!.counts[0], 0, 'an estimated edge: scored at its prevalence');
    assert.ok(view.features.every((f) => f.fromNotes));
    assert.equal(view.meanFeaturesPerRecord, 4 / 4, 'a complete description is as long as a note: 4 mentions in 4 notes');
    assert.equal(textView(s, params), view, 'built once per snapshot and parameters');
  });

  it('reads text through the view and coded answers through the coded rates', () => {
    const s = mixed();
    const seen: Float64Array[] = [];
    const opts = { ...DEFAULT_EVIDENCE_OPTIONS };
    rankWithProbability(ctx(s, 'fever'), opts, (x) => seen.push(x.scores));
    rankWithProbability(ctx(s, null), opts, (x) => seen.push(x.scores));
    rankWithProbability(ctx(kg(undefined), null), opts, (x) => seen.push(x.scores));
    // Fever favours Chagas over malaria in the coded rates (100% vs 90%); its notes write it once in four.
    assert.ok(seen[1]![0]! > seen[1]![1]!, 'coded: Chagas first');
    assert.ok(seen[0]![0]! - seen[0]![1]! < seen[1]![0]! - seen[1]![1]!, 'text: the notes weigh fever less for Chagas');
    assert.deepEqual([...seen[1]!], [...seen[2]!], 'a coded query scores as on the KG without the notes mentions');
  });

  it('the notes backoff (a default for KGs learnt from notes alone) leaves a KG with coded features as it was, text and coded answers alike', () => {
    assert.ok((DEFAULT_EVIDENCE_OPTIONS.notesBackoff ?? 0) > 0, 'on by default');
    const s = mixed();
    for (const text of ['fever', null]) {
      const scores = (m: number) => {
        const out: Float64Array[] = [];
        rankWithProbability(ctx(s, text), { ...DEFAULT_EVIDENCE_OPTIONS, notesBackoff: m }, (x) => out.push(x.scores));
        return [...out[0]!];
      };
      assert.deepEqual(scores(2), scores(0), String(text));
    }
    // On a KG learnt from notes alone it does move the scores (so the check above can fail).
    const notesOnly = buildSnapshot({
      categories: [{ id: 'cat:all', name: 'all' }],
      subcategories: [{ id: 'sub:all', name: 'all', categoryId: 'cat:all' }],
      diseases: [disease('dis:a', 5), disease('dis:b', 5)],
      features: [feature('feat:fever', true), feature('feat:bugs', true)],
      manifestations: [
        { diseaseId: 'dis:a', featureId: 'feat:fever', prevalence: 1, count: 5, source: 'ehr' },
        { diseaseId: 'dis:b', featureId: 'feat:bugs', prevalence: 0.6, count: 3, source: 'ehr' },
      ],
    });
    const on = (m: number) => {
      const out: Float64Array[] = [];
      rankWithProbability(ctx(notesOnly, 'fever'), { ...DEFAULT_EVIDENCE_OPTIONS, notesBackoff: m }, (x) => out.push(x.scores));
      return out[0]![0]! - out[0]![1]!;
    };
    assert.notEqual(on(2), on(0));
  });

  it('sparse scoring equals exhaustive scoring on the view', () => {
    const view = textView(mixed(), params)!;
    const t = nbTables(view, { ...params, notesUnreportedWeight: 0.1 });
    const reported = [{ feature: 1, present: true, weight: 1 }];
    const q = { unreportedWeight: 0.5, noise: 0.05 };
    assert.deepEqual([...nbScoresAll(view, t, reported, q, false)], [...nbScoresAll(view, t, reported, q, true)]);
  });
});

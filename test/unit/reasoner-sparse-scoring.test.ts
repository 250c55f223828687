import { strict as assert } from 'node:assert';
import { ddxplusSampleSnapshot } from '../../bench/scale/ddxplus-snapshot.js';
import { caseContext } from '../../bench/scale/vocab-phase.js';
import { generateVocabKg, type VocabCase } from '../../bench/scale/vocab-kg.js';
import type { KgSnapshot } from '../../src/query/kg-snapshot.js';
import { DEFAULT_EVIDENCE_OPTIONS, rankWithProbability } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { nbScore, nbTables, type ReportedFeature } from '../../src/reasoners/scoring-naive-bayes.js';
import { nbScoresAll, touchedDiseases } from '../../src/reasoners/scoring-sparse.js';
import { topK } from '../../src/reasoners/top-k.js';
import { mulberry32 } from '../../bench/lib/rng.js';

/**
 * The sparse scorer (scoring-sparse.ts) and the top-k selection must give the exhaustive
 * ranking: same top 10, same probabilities (calibrated and not) within 1e-9, on the DDXPlus
 * sample and on a generated 1,000-diagnosis KG, for complete and short inputs, absent findings,
 * priors from votes and neighbours, and a calibration with a tail and a mixture.
 */
function variants(s: KgSnapshot, c: VocabCase, i: number): ReasonerContext[] {
  const full = caseContext(s, c);
  const short = caseContext(s, { disease: c.disease, present: c.present.slice(0, 3) });
  // Absent findings: features of another disease, reported as denied.
  const other = s.manifestations[(c.disease + 1) % s.diseases.length]!.features;
  const denied = { ...full, matches: [...full.matches, ...[...other].slice(0, 2).map((f, k) => ({ findingIndex: 100 + k, featureId: s.features[f]!.id, featureText: s.features[f]!.text, similarity: 0.9, polarity: 'absent' as const }))] };
  const sub = s.subcategories[s.diseaseSubcategory[c.disease]!]!;
  const priors: ReasonerContext = { ...short, votes: [{ subcategoryId: sub.id, name: sub.name, votes: 2 }], retrieved: [{ id: 'r', similarity: 0.8, diagnosis: s.diseases[c.disease]!.name, diseaseId: s.diseases[(c.disease + i) % s.diseases.length]!.id, text: '', summary: null }] };
  const calibrated: ReasonerContext = { ...denied, calibration: { method: 'temperature', kinds: { coded: { b0: 0.3, b1: 0.5, tail: 4, mix: { weight: 0.1, beta: 0.05 } } } } };
  // Free text: the known rates price findings the records never showed (scoring-knowledge.ts).
  const asText: ReasonerContext = { ...denied, input: { ...denied.input, text: 'a description' } };
  return [full, short, denied, priors, calibrated, asText];
}

function assertSame(s: KgSnapshot, cases: VocabCase[]): void {
  const opts = { ...DEFAULT_EVIDENCE_OPTIONS, maxDifferential: 10 };
  cases.forEach((c, i) => {
    for (const [v, ctx] of variants(s, c, i).entries()) {
      const fast = rankWithProbability(ctx, opts);
      const ref = rankWithProbability(ctx, { ...opts, exhaustive: true });
      const where = `case ${i} variant ${v}`;
      assert.deepEqual(fast.differential.map((d) => d.diseaseId), ref.differential.map((d) => d.diseaseId), where);
      fast.differential.forEach((d, k) => assert.ok(Math.abs(d.score - ref.differential[k]!.score) < 1e-9, where));
      fast.probability.uncalibrated!.forEach((p, k) => assert.ok(Math.abs(p - ref.probability.uncalibrated![k]!) < 1e-9, where));
      assert.ok(Math.abs(fast.probability.unlisted - ref.probability.unlisted) < 1e-9, where);
      assert.deepEqual(fast.differential.map((d) => d.evidence), ref.differential.map((d) => d.evidence), where);
    }
  });
}

// Cases per KG (issue 49: 40 and 30 before): each case is ranked in its five variants both ways,
// 100 rankings compared on the DDXPlus sample and 50 on the generated KG; a path the sparse
// scorer gets wrong shows in every case that reaches it, and the variants reach them all.
describe('reasoner: sparse scoring equals exhaustive scoring (issue 29)', function () {
  this.timeout(60_000);

  it('on the DDXPlus sample (declared evidence included)', async () => {
    const { snapshot, cases } = await ddxplusSampleSnapshot({ cases: 20 });
    assert.ok(snapshot.diseases.some((d) => (d.declaredEvidence ?? []).length > 0), 'the declared-unseen path is exercised');
    assert.ok(snapshot.diseases.some((d) => (d.knownEvidence ?? []).length > 0), 'and the known rates (free-text variant)');
    assertSame(snapshot, cases);
  });

  it('on a generated 1,000-diagnosis KG, where most diseases are scored per p0', () => {
    const { snapshot, cases } = generateVocabKg({ diseases: 1000, features: 5000, records: 20_000, cases: 10, seed: 3 });
    const t = nbTables(snapshot, DEFAULT_EVIDENCE_OPTIONS);
    const reported: ReportedFeature[] = cases[0]!.present.slice(0, 3).map((feature) => ({ feature, present: true, weight: 1 }));
    const touched = touchedDiseases(snapshot, t, reported).reduce((a, x) => a + x, 0);
    assert.ok(touched < snapshot.diseases.length / 2, `${touched} of ${snapshot.diseases.length} touched`);
    assertSame(snapshot, cases);
    // The build's gate diagnoser asks without noise or mixture (kg-build/gate-diagnoser.ts): bit-identical there too.
    const q = { unreportedWeight: 0.5 };
    const all = nbScoresAll(snapshot, t, reported, q);
    snapshot.diseases.forEach((_, d) => assert.equal(all[d], nbScore(snapshot, t, d, reported, q).score));
  });

  it('topK is sorting by (score desc, index asc) and keeping k, ties included', () => {
    const rng = mulberry32(5);
    for (let trial = 0; trial < 200; trial++) {
      const xs = Array.from({ length: 1 + Math.floor(rng() * 60) }, () => Math.floor(rng() * 8));
      const k = Math.floor(rng() * 12);
      const ref = xs.map((_, i) => i).sort((a, b) => xs[b]! - xs[a]! || a - b).slice(0, k);
      assert.deepEqual(topK(xs, k), ref, `${xs} k=${k}`);
    }
  });
});

import assert from 'node:assert/strict';
import { CalibrationFileSchema, toPosteriorCalibration } from '../../src/calibration/calibration-file.js';
import { fitCalibrationParams, meanNll, MIN_BAND_CASES, top1Auroc, type CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { fitBandedTopLabel, fitBandedTopOdds } from '../../src/calibration/fit-top-bands.js';
import { calibratedPosterior, scaledSoftmax } from '../../src/calibration/temperature.js';
import { applyTopBands, bandEdges, bandIndex, bandOf, LEVEL_TOLERANCE, type TopBand } from '../../src/calibration/top-bands.js';
import { seededRandom } from '../../src/util/rng.js';
import { codedCalibrationCases } from '../support/calibration-cases.js';

const order = (p: ArrayLike<number>) => [...Array(p.length).keys()].sort((a, b) => p[b]! - p[a]! || a - b);
const topOf = (p: ArrayLike<number>) => order(p)[0]!;

/**
 * Coded cases as a build fits them: the chief complaint alone (completeness 0.05), a partial and a
 * whole record. The raw first probability is honest for the records; for the chief complaint the
 * first disease is right 30% of the time whatever the raw probability says: no temperature linear
 * in completeness flattens that band's first probability to its accuracy while leaving the others
 * alone, and a map shared with the records cannot either; a map of its own can.
 */
const codedCases = (n: number, seed: number): CalibrationSample[] => codedCalibrationCases(n, seed, (c, p0) => (c < 0.1 ? 0.3 : p0));

describe('calibration: the first disease mapped by completeness band', () => {
  it('bandEdges cuts equal-count bands halfway between levels, never inside one level, each band at least minBand', () => {
    const c = [...Array(30).fill(0.05), ...Array.from({ length: 30 }, (_, i) => 0.2 + i / 100), ...Array(30).fill(1)];
    assert.deepEqual(bandEdges(c, 3, 10), [(0.05 + 0.2) / 2, (0.49 + 1) / 2]);
    // Ties: the chief complaints' 0.05 holds 40 of 60 cases, so the first band takes them all.
    assert.deepEqual(bandEdges([...Array(40).fill(0.05), ...Array.from({ length: 15 }, (_, i) => 0.5 + i / 100)], 3, 10), [(0.05 + 0.5) / 2]);
    // The quantile at 0.29: 0.30 is within LEVEL_TOLERANCE of it (one level), 0.31 is not.
    assert.deepEqual(bandEdges(c, 3, 40), [(c[40]! + c[41]!) / 2], 'bands of 40: two bands only');
    assert.deepEqual(bandEdges(Array(90).fill(0.3), 3, 10), [], 'one value: one band');
    assert.deepEqual(bandEdges(c, 3, 60), [], 'too few cases for two bands');
    // Five fit KGs count completeness in slightly different units (the chief complaint's one finding:
    // 0.0542 to 0.0554); the served KG's 0.0547 must fall in the band its fit cases did, whichever fold an edge's quantile hit.
    const units = [0.05424, 0.05443, 0.05469, 0.0548, 0.05539];
    const spread = [...units.flatMap((u) => Array(20).fill(u)), ...Array.from({ length: 100 }, (_, i) => 0.11 + i / 200)];
    for (const count of [2, 3, 4, 8]) {
      const edges = bandEdges(spread, count, 10);
      assert.ok(edges.length > 0 && edges[0]! > 0.0554 * (1 + LEVEL_TOLERANCE / 2) && edges[0]! < 0.11, `${count} bands: ${edges}`);
      assert.equal(bandIndex(edges, 0.0547), 0);
    }
    assert.equal(bandIndex([0.05, 0.49], 0.05), 0);
    assert.equal(bandIndex([0.05, 0.49], 0.3), 1);
    assert.equal(bandIndex([0.05, 0.49], 1), 2);
  });

  it('applies the map of the case\'s own band, keeps the sum at 1 and never reorders', () => {
    const bands: TopBand[] = [
      { upTo: 0.1, topLabel: { x: [0.5, 0.9], y: [0.2, 0.5] } },
      { upTo: 0.6, topOdds: { a: 0.5, b: 0 } },
      { upTo: null, topLabel: null },
    ];
    assert.equal(bandOf(bands, 0.05), bands[0]);
    assert.equal(bandOf(bands, 0.6), bands[1]);
    assert.equal(bandOf(bands, 0.9), bands[2]);
    const rnd = seededRandom(4);
    for (let t = 0; t < 100; t++) {
      const z = Float64Array.from({ length: 12 }, () => -8 * rnd());
      const raw = scaledSoftmax(z, 1);
      for (const c of [0.05, 0.3, 0.9]) {
        const q = Float64Array.from(raw);
        applyTopBands(q, z, bands, c);
        assert.ok(Math.abs(q.reduce((a, v) => a + v, 0) - 1) < 1e-9);
        const before = order(raw);
        for (let i = 1; i < before.length; i++) assert.ok(q[before[i - 1]!]! >= q[before[i]!]! - 1e-15, 'order kept');
        if (c > 0.6) assert.deepEqual([...q], [...raw], 'a band without a map keeps the probabilities');
      }
    }
    // The first band's map lowers a 0.9 first disease to 0.5; the same scores in the open band stay.
    const z = Float64Array.from([Math.log(9), 0]);
    const low = scaledSoftmax(z, 1);
    applyTopBands(low, z, bands, 0.05);
    assert.ok(Math.abs(low[0]! - 0.5) < 1e-9, String(low[0]));
  });

  it('the fit keeps a map per band where the chief complaint is miscalibrated its own way: that band then shows its accuracy, the others stay honest', () => {
    const samples = codedCases(900, 21);
    const fit = fitCalibrationParams(samples, [null], false, { minBandCases: 200 });
    assert.ok(fit.topBands, `bands chosen: ${JSON.stringify({ ...fit, topLabel: Boolean(fit.topLabel) })}`);
    const gap = (c: number, p: Parameters<typeof calibratedPosterior>[1]) => {
      const xs = samples.filter((s) => s.completeness === c);
      let shown = 0;
      let right = 0;
      for (const s of xs) {
        const probs = calibratedPosterior(s.scores, p, s.completeness).probs;
        const top = topOf(probs);
        shown += probs[top]!;
        right += top === s.truth ? 1 : 0;
      }
      return (shown - right) / xs.length;
    };
    assert.ok(gap(0.05, undefined) > 0.2, `raw chief complaint overconfident: ${gap(0.05, undefined)}`);
    for (const c of [0.05, 0.4, 1]) assert.ok(Math.abs(gap(c, fit)) < 0.03, `band of ${c}: shown − right ${gap(c, fit).toFixed(3)}`);
    assert.ok(meanNll(samples, fit) < meanNll(samples, undefined), 'NLL lower than raw');
    assert.ok(top1Auroc(samples, fit) >= top1Auroc(samples, undefined) - 1e-9, 'top-1 AUROC no lower than raw');
    // Fresh cases of the same kind (not fitted on): the chief complaint's gap stays small there too.
    const fresh = codedCases(900, 22);
    let shown = 0;
    let right = 0;
    for (const s of fresh.filter((x) => x.completeness === 0.05)) {
      const probs = calibratedPosterior(s.scores, fit, s.completeness).probs;
      const top = topOf(probs);
      assert.equal(top, topOf(s.scores), 'no reordering');
      shown += probs[top]!;
      right += top === s.truth ? 1 : 0;
    }
    assert.ok(Math.abs(shown - right) / 300 < 0.05, `held-out chief complaints: shown − right ${((shown - right) / 300).toFixed(3)}`);
  });

  it('is not chosen where every band is calibrated the same way (the kind-wide choice stands)', () => {
    const rnd = seededRandom(5);
    const samples: CalibrationSample[] = Array.from({ length: 600 }, (_, i) => {
      const scores = Float64Array.from({ length: 8 }, () => -4 * rnd());
      scores[0] = 1 + 5 * rnd();
      const p = scaledSoftmax(scores, 1);
      return { scores, truth: rnd() < p[0]! ? 0 : 1 + Math.floor(rnd() * 7), completeness: [0.05, 0.4, 1][i % 3]! };
    });
    assert.equal(fitCalibrationParams(samples, [null], false, { minBandCases: 150 }).topBands ?? null, null);
  });

  it('a band needs MIN_BAND_CASES fit cases for a map of its own: with fewer the kind-wide choice stands', () => {
    assert.ok(MIN_BAND_CASES >= 300 && 0.25 / MIN_BAND_CASES <= 0.025 ** 2 + 1e-12, 'a band\'s accuracy known to a 2.5-point standard error');
    const fit = fitCalibrationParams(codedCases(900, 21), [null], false);
    assert.equal(fit.topBands ?? null, null, 'bands of 300 cases: none');
    assert.ok(fit.topLabel || fit.topOdds, 'the kind-wide map instead');
  });

  it('fits banded maps only where the cases split, and the banded top-odds map per band from the raw log-odds', () => {
    const samples = codedCases(300, 9);
    const plain = { b0: 1, b1: 0 };
    const bands = fitBandedTopLabel(samples, plain, { minBand: 40, minBlock: 20 })!;
    assert.deepEqual(bands.map((b) => b.upTo), [(0.05 + 0.4) / 2, (0.4 + 1) / 2, null]);
    assert.equal(fitBandedTopLabel(samples.map((s) => ({ ...s, completeness: 0.5 })), plain, { minBand: 40, minBlock: 20 }), null, 'one completeness: no bands');
    const odds = fitBandedTopOdds(samples, [0.05, 0.4])!;
    assert.ok(odds.every((b) => b.topOdds && b.topOdds.a > 0), JSON.stringify(odds));
    // The chief complaint's map is lower than the records' at the same log-odds.
    const at = (b: TopBand) => 1 / (1 + Math.exp(-(b.topOdds!.a * 2 + b.topOdds!.b)));
    assert.ok(at(odds[0]!) < at(odds[2]!) - 0.1, `${at(odds[0]!)} vs ${at(odds[2]!)}`);
  });

  it('is stored with the build: the calibration file accepts ordered bands and refuses others', () => {
    const file = (topBands: unknown) => ({ schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'b', kinds: { coded: { b0: 1, b1: 0, topBands, n: 10, nllBefore: 1, nllAfter: 0.9, iterations: 1 } }, heldOut: { sources: [], cases: {} }, createdAt: 'now' });
    const good = [{ upTo: 0.05, topLabel: { x: [0.5], y: [0.3] } }, { upTo: null, topOdds: { a: 1, b: 0 } }];
    const parsed = CalibrationFileSchema.parse(file(good));
    assert.deepEqual(toPosteriorCalibration(parsed).kinds.coded?.topBands, good);
    assert.equal(CalibrationFileSchema.safeParse(file([{ upTo: 0.5 }, { upTo: 0.2 }, { upTo: null }])).success, false, 'edges out of order');
    assert.equal(CalibrationFileSchema.safeParse(file([{ upTo: 0.5 }])).success, false, 'last band not open');
  });
});

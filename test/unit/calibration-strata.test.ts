import assert from 'node:assert/strict';
import { CalibrationFileSchema, toPosteriorCalibration } from '../../src/calibration/calibration-file.js';
import { fitCalibrationParams, meanNll, type CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { fitKindCalibration, levelEdges } from '../../src/calibration/fit-strata.js';
import { formatCalibration } from '../../src/calibration/run-calibration.js';
import { calibratedPosterior, inverseTemperature, paramsAt, scaledSoftmax, type KindTemperature } from '../../src/calibration/temperature.js';
import { seededRandom } from '../../src/util/rng.js';
import { codedCalibrationCases } from '../support/calibration-cases.js';

const order = (p: ArrayLike<number>) => [...Array(p.length).keys()].sort((a, b) => p[b]! - p[a]! || a - b);

/**
 * Coded cases at three levels of completeness, each miscalibrated its own way: the chief complaint
 * (0.05) is right 30% of the time whatever its raw first probability, a partial record (0.4) 70% as
 * often as it says, a whole record (1) exactly as often as it says.
 */
const coded = (n: number, seed: number): CalibrationSample[] =>
  codedCalibrationCases(n, seed, (c, p0) => (c < 0.1 ? 0.3 : c < 0.5 ? 0.7 * p0 : p0));

/** Mean first probability shown minus the share right, over the cases at completeness c. */
function gap(samples: readonly CalibrationSample[], c: number, p: KindTemperature | undefined): number {
  const xs = samples.filter((s) => s.completeness === c);
  let d = 0;
  for (const s of xs) {
    const probs = calibratedPosterior(s.scores, p, s.completeness).probs;
    const top = order(probs)[0]!;
    d += probs[top]! - (top === s.truth ? 1 : 0);
  }
  return d / xs.length;
}

describe('calibration: one calibration per completeness band (fit-strata.ts)', () => {
  it('a level of completeness held by the minimum stands apart, halfway to its neighbours; a continuum does not split', () => {
    const stretch = (n: number, lo: number, hi: number) => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / n);
    // Chief complaints at one level (in five fit KGs' slightly different units), partial and whole records spread above it.
    const cc = [0.05424, 0.05443, 0.05469, 0.0548, 0.05539].flatMap((u) => Array(20).fill(u));
    assert.deepEqual(levelEdges([...cc, ...stretch(200, 0.11, 0.95)], 50), [(0.05539 + 0.11) / 2]);
    // Records capped at completeness 1 are a level too.
    const edges = levelEdges([...cc, ...stretch(200, 0.11, 0.95), ...Array(60).fill(1)], 50);
    assert.deepEqual(edges.map((e) => e.toFixed(4)), [(0.05539 + 0.11) / 2, (0.95 - 0.84 / 200 + 1) / 2].map((e) => e.toFixed(4)));
    assert.deepEqual(levelEdges(stretch(500, 0.05, 1), 50), [], 'free text: every length, no level');
    assert.deepEqual(levelEdges([...cc, ...stretch(30, 0.11, 0.95)], 50), [], 'the rest too few for a stratum of its own');
    assert.deepEqual(levelEdges([...cc, ...stretch(200, 0.11, 0.95)], 150), [], 'a level under the minimum');
  });

  it('each level gets its own calibration: every level then shows its accuracy, on fresh cases too, and no order changes', () => {
    const samples = coded(900, 31);
    const fit = fitKindCalibration(samples, { minBand: 150, grid: [null], mix: false });
    assert.ok(fit.strata && fit.strata.length === 3, JSON.stringify(fit.strata?.map((s) => s.upTo)));
    const fresh = coded(900, 32);
    for (const c of [0.05, 0.4]) assert.ok(gap(fresh, c, undefined) > 0.15, `raw level ${c} overconfident: ${gap(fresh, c, undefined)}`);
    for (const c of [0.05, 0.4, 1]) {
      assert.ok(Math.abs(gap(fresh, c, fit)) < 0.05, `level ${c}: shown − right ${gap(fresh, c, fit).toFixed(3)}`);
    }
    assert.ok(meanNll(fresh, fit) < meanNll(fresh, undefined), 'fresh NLL lower than raw');
    for (const s of fresh.slice(0, 300)) assert.deepEqual(order(calibratedPosterior(s.scores, fit, s.completeness).probs).slice(0, 5), order(s.scores).slice(0, 5), 'calibration never reorders');
  });

  it('a level has its own calibration, the continuum beside it keeps the kind\'s', () => {
    const level = coded(900, 34).filter((s) => s.completeness === 0.05);
    const rnd = seededRandom(35);
    const spread = coded(450, 36).filter((s) => s.completeness !== 0.05).map((s) => ({ ...s, completeness: 0.2 + 0.8 * rnd() }));
    const samples = [...level, ...spread];
    const fit = fitKindCalibration(samples, { minBand: 200, grid: [null], mix: false });
    assert.equal(fit.strata?.length, 2, JSON.stringify(fit.strata?.map((s) => s.upTo)));
    const wide = fitCalibrationParams(samples, [null], false, { minBandCases: Infinity });
    assert.deepEqual([fit.strata![1]!.params.b0, fit.strata![1]!.params.b1], [wide.b0, wide.b1]);
    assert.notDeepEqual([fit.strata![0]!.params.b0, fit.strata![0]!.params.b1], [wide.b0, wide.b1]);
    assert.ok(Math.abs(gap(level, 0.05, fit)) < 0.05, `the level's gap ${gap(level, 0.05, fit).toFixed(3)}`);
  });

  it('too few cases for two bands: one calibration for the kind, as before', () => {
    const samples = coded(240, 33);
    const fit = fitKindCalibration(samples, { minBand: 200, grid: [null], mix: false });
    assert.equal(fit.strata ?? null, null);
    assert.deepEqual(fit, fitCalibrationParams(samples, [null], false));
  });

  it('a case is calibrated by its band\'s parameters, and the file stores the bands and says them', () => {
    const strata = [
      { upTo: 0.1, params: { b0: 0.5, b1: 0, tail: null, mix: null, topLabel: null } },
      { upTo: null, params: { b0: 2, b1: 0, tail: null, mix: null, topLabel: null } },
    ];
    const kind: KindTemperature = { b0: 1, b1: 0, tail: null, mix: null, strata };
    assert.equal(paramsAt(kind, 0.05), strata[0]!.params);
    assert.equal(paramsAt(kind, 0.9), strata[1]!.params);
    assert.equal(inverseTemperature(kind, 0.05), 0.5);
    assert.equal(inverseTemperature(kind, 0.9), 2);
    const z = [2, 1, 0];
    assert.deepEqual([...calibratedPosterior(z, kind, 0.05).probs], [...scaledSoftmax(z, 0.5)]);
    const file = { schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'b', kinds: { coded: { ...kind, n: 10, nllBefore: 1, nllAfter: 0.9, iterations: 0 } }, heldOut: { sources: [], cases: {} }, createdAt: 'now' };
    const parsed = CalibrationFileSchema.parse(file);
    assert.deepEqual(toPosteriorCalibration(parsed).kinds.coded?.strata, strata);
    assert.match(formatCalibration(parsed), /coded +n=10 +by completeness: a level many cases share calibrated on its own[^\n]*\n +completeness 0\.00-0\.10: b0=0\.500[^\n]*\n +completeness 0\.10-1: b0=2\.000/);
    assert.equal(CalibrationFileSchema.safeParse({ ...file, kinds: { coded: { ...file.kinds.coded, strata: [strata[1], strata[0]] } } }).success, false, 'the last band open, edges ascending');
  });
});

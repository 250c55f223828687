import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCalibration, writeCalibration, type CalibrationFile } from '../../src/calibration/calibration-file.js';
import { clearGain, fitCalibrationParams, fitTemperature, meanNll, type CalibrationSample } from '../../src/calibration/fit-temperature.js';
import { nelderMead } from '../../src/calibration/nelder-mead.js';
import { formatCalibration } from '../../src/calibration/run-calibration.js';
import { calibratedPosterior, inputKind, inverseTemperature, MAX_BETA, MIN_BETA, scaledSoftmax } from '../../src/calibration/temperature.js';
import { buildDir, manifestPath, type BuildManifest } from '../../src/domain/artifacts.js';
import { ArtifactError } from '../../src/errors.js';
import { seededRandom } from '../../src/util/rng.js';

/** Cases drawn from a known model: the truth ~ softmax(βtrue(c) · z), scores z random. */
function synthetic(n: number, betaOf: (c: number) => number, seed = 1): CalibrationSample[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const c = rnd();
    const scores = Array.from({ length: 8 }, () => 6 * rnd());
    const p = scaledSoftmax(scores, betaOf(c));
    let u = rnd();
    let truth = 0;
    while (truth < p.length - 1 && (u -= p[truth]!) > 0) truth++;
    return { scores, truth, completeness: c };
  });
}

describe('posterior calibration (issue 26)', () => {
  it('fit: recovers a known inverse temperature and its dependence on completeness, lowering the NLL', () => {
    const fit = fitTemperature(synthetic(4000, (c) => 0.3 + 0.5 * c));
    assert.ok(Math.abs(fit.b0 - 0.3) < 0.08, `b0 ${fit.b0}`);
    assert.ok(Math.abs(fit.b1 - 0.5) < 0.15, `b1 ${fit.b1}`);
    assert.ok(fit.nllAfter < fit.nllBefore);
    assert.equal(fit.n, 4000);
  });

  it('fit: an overconfident scorer gets β < 1 (a temperature above 1); no cases keep β = 1', () => {
    const fit = fitTemperature(synthetic(2000, () => 0.4, 5).map((s) => ({ ...s, completeness: 0.5 })));
    assert.ok(inverseTemperature(fit, 0.5) < 0.6);
    assert.deepEqual([fitTemperature([]).b0, fitTemperature([]).b1], [1, 0]);
    assert.ok(meanNll([], undefined) === 0);
  });

  it('apply: rescales but never reorders, whatever β', () => {
    const rnd = seededRandom(9);
    for (let t = 0; t < 200; t++) {
      const z = Array.from({ length: 12 }, () => -50 * rnd());
      const order = (p: ArrayLike<number>) => Array.from(p, (v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map((x) => x[1]);
      const params = { b0: 4 * rnd() - 1, b1: 4 * rnd() - 2, tail: t % 2 === 0 ? null : 0.25 + 50 * rnd(), mix: t % 3 === 0 ? null : { weight: 0.3 * rnd(), beta: 0.3 * rnd() + 1e-3 } };
      const { probs: cal, beta } = calibratedPosterior(z, params, rnd());
      assert.ok(beta >= MIN_BETA && beta <= MAX_BETA);
      const raw = scaledSoftmax(z, 1);
      assert.deepEqual(order(cal).slice(0, 5), order(raw).slice(0, 5));
      assert.ok(Math.abs(cal.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    }
  });

  it('fit: a heavy-tailed truth picks a tail scale and beats plain scaling', () => {
    // The truth drawn from a power-law posterior (1 + Δ/4)^−2: plain scaling cannot fit its tail.
    // 1,500 cases (3,000 before issue 49): the gain over plain scaling is 0.034 nats here and
    // 0.012-0.035 on seeds 12, 13, 21, 22, at 1,500 as at 3,000, against the 0.01 asked.
    const heavy = synthetic(1500, () => 1, 11).map((s) => {
      const z = Float64Array.from(s.scores, (v) => 20 * v);
      const p = scaledSoftmax(Float64Array.from(z, (v) => -Math.log1p((Math.max(...z) - v) / 4)), 2);
      const u = seededRandom(s.truth + 17)();
      let acc = 0, truth = 0;
      for (; truth < p.length - 1; truth++) if ((acc += p[truth]!) >= u) break;
      return { scores: z, truth, completeness: 0.5 };
    });
    const best = fitCalibrationParams(heavy, undefined, false, { select: false });
    const plain = fitCalibrationParams(heavy, [null], false);
    assert.ok(best.tail !== null && best.tail !== undefined, 'a tail scale is chosen');
    assert.ok(best.nllAfter < plain.nllAfter - 0.01, `${best.nllAfter} < ${plain.nllAfter}`);
    assert.ok(best.nllAfter < best.nllBefore);
  });

  it('fit: a reading that is sometimes off (truth from a broad component) gets a mixture weight', () => {
    // 600 cases (1,200 before issue 49): the mixture's gain is 0.16 nats here and 0.13-0.21 on
    // seeds 11, 12, 13, 22 (0.16-0.20 at 1,200), its weight 0.05-0.1, against 0.05 and 0.02-0.2 asked.
    const rnd = seededRandom(21);
    const samples = Array.from({ length: 600 }, () => {
      const scores = Array.from({ length: 20 }, () => 40 * rnd());
      const p = scaledSoftmax(scores, rnd() < 0.1 ? 0.05 : 1); // one case in ten: the scores say little
      let u = rnd(), truth = 0;
      while (truth < p.length - 1 && (u -= p[truth]!) > 0) truth++;
      return { scores, truth, completeness: 0.5 };
    });
    const withMix = fitCalibrationParams(samples, [null], true, { select: false });
    const without = fitCalibrationParams(samples, [null], false);
    assert.ok(withMix.mix && withMix.mix.weight >= 0.02 && withMix.mix.weight <= 0.2, JSON.stringify(withMix.mix));
    assert.ok(withMix.nllAfter < without.nllAfter - 0.05, `${withMix.nllAfter} < ${without.nllAfter}`);
    // What is applied is what was fitted: meanNll of the stored parameters equals the fit's.
    assert.ok(Math.abs(meanNll(samples, withMix) - withMix.nllAfter) < 1e-9);
  });

  it('fit: an optional stage is kept only when it lowers the NLL of cases its fit did not see', () => {
    // Drawn from plain temperature scaling: no broad reading nor top-label map is needed, and on
    // unseen folds they cannot help; in-sample they always shave a little off the NLL.
    const samples = synthetic(300, () => 0.6, 31).map((s) => ({ ...s, completeness: 0.5 }));
    const selected = fitCalibrationParams(samples, [null]);
    const inSample = fitCalibrationParams(samples, [null], true, { select: false });
    assert.equal(selected.topLabel ?? null, null);
    assert.equal(selected.mix ?? null, null);
    assert.ok(inSample.nllAfter <= selected.nllAfter + 1e-12);
    assert.ok(Math.abs(meanNll(samples, selected) - selected.nllAfter) < 1e-9, 'the stored NLL is of what is applied');
  });

  it('fit: cases the raw posterior already fits keep it (β = 1, no stage); an overconfident scorer does not', () => {
    // Drawn from the raw posterior itself: no fit beats it on cases it did not see.
    const calibrated = synthetic(300, () => 1, 41).map((s) => ({ ...s, completeness: 0.5 }));
    const kept = fitCalibrationParams(calibrated, [null]);
    assert.deepEqual([kept.b0, kept.b1, kept.tail ?? null, kept.mix ?? null, kept.topLabel ?? null, kept.topOdds ?? null], [1, 0, null, null, null, null]);
    assert.equal(kept.nllAfter, kept.nllBefore);
    const forced = fitCalibrationParams(calibrated, [null], true, { identity: false });
    assert.notEqual(forced.b0, 1, 'without the raw candidate the fit moves β by the noise of the cases');
    const overconfident = fitCalibrationParams(synthetic(300, () => 0.5, 43), [null]);
    assert.ok(inverseTemperature(overconfident, 0.5) < 0.8, `β ${inverseTemperature(overconfident, 0.5)}`);
  });

  it('fit: a gain within one standard error of the per-case gains keeps the raw posterior (one-standard-error rule)', () => {
    // Mean gain 0.01 nats, spread 0.2: noise. The same mean with little spread, or a large gain: real.
    const raw = Array.from({ length: 150 }, (_, i) => 0.5 + (i % 2 === 0 ? 0.2 : -0.2));
    assert.equal(clearGain(raw, raw.map((r, i) => r - 0.01 + (i % 2 === 0 ? -0.2 : 0.2))), false);
    assert.equal(clearGain(raw, raw.map((r, i) => r - 0.01 + (i % 3 === 0 ? 0.001 : -0.0005))), true);
    assert.equal(clearGain(raw, raw.map((r) => r - 0.1)), true);
    assert.equal(clearGain(raw, raw.map((r) => r + 0.05)), false, 'a loss is no gain');
    // Slightly overconfident cases (β 0.9): the fit's out-of-sample gain is within noise, so nothing moves.
    const near = synthetic(300, () => 0.9, 47).map((s) => ({ ...s, completeness: 0.5 }));
    const kept = fitCalibrationParams(near, [null]);
    assert.deepEqual([kept.b0, kept.b1], [1, 0], `β ${inverseTemperature(kept, 0.5)}`);
  });

  it('report: says when the raw posterior was kept, and which parameters were fitted otherwise', () => {
    const file: CalibrationFile = { schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'kg-x', createdAt: 'now', heldOut: { sources: [], cases: { 'text-case': 147 } },
      kinds: { text: { b0: 1, b1: 0, tail: null, mix: null, n: 147, nllBefore: 0.15, nllAfter: 0.15, iterations: 0 }, coded: { b0: 0.8, b1: -0.3, tail: 4, mix: null, topLabel: { x: [0.5, 0.9], y: [0.4, 0.95] }, n: 500, nllBefore: 1, nllAfter: 0.9, iterations: 5 } } };
    const text = formatCalibration(file);
    assert.match(text, /text\s+n=147\s+raw posterior kept/);
    assert.match(text, /coded\s+n=500\s+b0=0\.800 b1=-0\.300 tail=4 mix=none top-label/);
  });

  it('nelderMead: finds the minimum of a smooth bowl', () => {
    const x = nelderMead((v) => (v[0]! - 1.5) ** 2 + 3 * (v[1]! + 0.5) ** 2, [0, 0], 0.3, 200);
    assert.ok(Math.abs(x[0]! - 1.5) < 1e-3 && Math.abs(x[1]! + 0.5) < 1e-3, JSON.stringify(x));
  });

  it('input kind: free text (with or without coded findings) is text, coded findings alone coded', () => {
    assert.equal(inputKind({ text: 'chest pain' }), 'text');
    assert.equal(inputKind({ text: '  ' }), 'coded');
    assert.equal(inputKind({ text: null }), 'coded');
    assert.equal(inverseTemperature(undefined, 0.3), 1, 'no parameters: uncalibrated');
  });

  describe('persisted with the build', () => {
    let dataDir: string;
    const manifest = { buildId: 'kg-test', source: 's', embedder: 'e', embeddingDim: 4, recordIndex: { kind: 'flat', size: 0, file: 'r', rows: 'r' }, featureIndex: { size: 0, file: 'f', ids: 'f' }, recordIdsFile: 'x', createdAt: 'now' } as BuildManifest;
    const fit = { b0: 0.8, b1: -0.3, n: 40, nllBefore: 1, nllAfter: 0.9, iterations: 4 };
    const file: CalibrationFile = { schema: 'dxgraph-calibration/1', method: 'temperature', buildId: 'kg-test', kinds: { text: fit }, heldOut: { sources: ['text:dev.jsonl'], cases: { 'text-case': 40 } }, createdAt: 'now' };
    beforeEach(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'dxgraph-cal-'));
      await mkdir(buildDir(dataDir, 'kg-test'), { recursive: true });
      await writeFile(manifestPath(dataDir, 'kg-test'), JSON.stringify(manifest));
    });
    afterEach(async () => rm(dataDir, { recursive: true, force: true }));

    it('writes the file, names it in the manifest, reads back the same parameters', async () => {
      const next = await writeCalibration(dataDir, manifest, file);
      assert.deepEqual(next.calibration, { file: 'calibration.json' });
      assert.deepEqual(JSON.parse(await readFile(manifestPath(dataDir, 'kg-test'), 'utf8')).calibration, { file: 'calibration.json' });
      assert.deepEqual(await readCalibration(dataDir, next), { method: 'temperature', kinds: { text: { b0: 0.8, b1: -0.3, tail: null, mix: null, topLabel: null } } });
      assert.equal(await readCalibration(dataDir, manifest), null, 'a manifest without the entry: uncalibrated');
    });

    it('a corrupt file, or one fitted for another build, is an ArtifactError', async () => {
      const next = await writeCalibration(dataDir, manifest, file);
      await writeFile(join(buildDir(dataDir, 'kg-test'), 'calibration.json'), JSON.stringify({ ...file, kinds: { text: { ...fit, b0: 'x' } } }));
      await assert.rejects(readCalibration(dataDir, next), (e) => e instanceof ArtifactError && /corrupt/.test(e.message));
      await writeFile(join(buildDir(dataDir, 'kg-test'), 'calibration.json'), JSON.stringify({ ...file, buildId: 'kg-other' }));
      await assert.rejects(readCalibration(dataDir, next), (e) => e instanceof ArtifactError && /kg-other/.test(e.message));
    });
  });
});

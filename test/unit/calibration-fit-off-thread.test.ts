import assert from 'node:assert/strict';
import { CalibrationFitError, fitCalibrationOffThread } from '../../src/calibration/fit-off-thread.js';
import { fitCalibration, type CollectedSamples } from '../../src/calibration/fit-stage.js';
import { codedCalibrationCases } from '../support/calibration-cases.js';

describe('the calibration fit on a worker thread (issue 49: beside the served build)', function () {
  this.timeout(60_000);

  it('fits the same parameters to the bit as on the main thread, every kind and stage', async () => {
    // Coded cases at three levels of completeness, text cases, each miscalibrated (few: a unit test's CPU).
    const coded = codedCalibrationCases(150, 3, (c, p0) => (c < 0.1 ? 0.3 : c < 0.5 ? 0.7 * p0 : p0));
    const text = codedCalibrationCases(60, 4, (_c, p0) => 0.8 * p0);
    const samples: CollectedSamples = { byKind: { coded, text }, counts: { coded: coded.length, text: text.length } };
    const here = fitCalibration(samples);
    const there = await fitCalibrationOffThread(samples);
    assert.deepEqual(Object.keys(there).sort(), ['coded', 'text']);
    assert.deepEqual(there, here);
  });

  it('a fit that throws on its thread rejects with a CalibrationFitError naming why', async () => {
    const broken = { byKind: { coded: [{ scores: null, truth: 0, completeness: 0.5 }] }, counts: {} } as unknown as CollectedSamples;
    await assert.rejects(fitCalibrationOffThread(broken), (e: unknown) => e instanceof CalibrationFitError && /calibration fit failed/.test(e.message) && e.code === 'CALIBRATION_FIT');
  });
});

import assert from 'node:assert/strict';
import { calibrationState } from '../../src/eval/calibration-html.js';
import { calibrationReport } from '../../src/eval/calibration-report.js';
import type { EvalReport } from '../../src/eval/types.js';

/**
 * The eval's cases are coded: a build calibrated for free text only shows them raw, and the
 * report says so instead of "calibrated" (session 22: the demo's build calibrates text only).
 */
describe('eval report: what the coded scores are', () => {
  const report = (kinds: ('coded' | 'text')[], inputKind: 'coded' | 'text' = 'coded') => ({ calibration: calibrationReport({ cases: [], interactive: null, truth: () => '', diseaseCount: 2, calibratedKinds: kinds, inputKind, seed: 1 }) }) as unknown as EvalReport;

  it('calibrated only when the build calibrates coded input', () => {
    assert.equal(report(['coded', 'text']).calibration!.calibrated, true);
    assert.equal(report(['text']).calibration!.calibrated, false);
    assert.deepEqual(report(['text']).calibration!.calibrated_kinds, ['text']);
  });

  it('names each state', () => {
    assert.match(calibrationState(report(['coded'])), /calibrated with the build’s stored calibration of coded input/);
    assert.match(calibrationState(report(['text'])), /free text only: these coded cases show the raw posterior/);
    assert.match(calibrationState(report([])), /no calibration/);
  });

  it('`eval --input text` scores free text: its state names the text calibration, which the diagnose path applies to text', () => {
    assert.equal(report(['coded', 'text'], 'text').calibration!.calibrated, true);
    assert.equal(report(['coded'], 'text').calibration!.calibrated, false);
    assert.match(calibrationState(report(['coded', 'text'], 'text')), /stored calibration of free text/);
    assert.match(calibrationState(report(['coded'], 'text')), /coded input only: these text cases show the raw posterior/);
  });
});

import assert from 'node:assert/strict';
import { freeTextCalibrationTargets, formatFreeTextCalibration, type SetCalibration } from '../../bench/lib/free-text-calibration.js';
import { calibrationMetrics, probabilityCase } from '../../src/eval/calibration-metrics.js';

/** Issue 26's goals are judged on blind sets only: never on the set calibrated on nor on the set the reader was tuned on. */
describe('free-text bench calibration goals', () => {
  const cases = [probabilityCase([{ diseaseId: 'a', p: 0.9 }, { diseaseId: 'b', p: 0.1 }], 'a', 2), probabilityCase([{ diseaseId: 'a', p: 0.6 }, { diseaseId: 'b', p: 0.4 }], 'b', 2)];
  const m = calibrationMetrics(cases, { resamples: 10 });
  const set = (path: string, extra: Partial<SetCalibration> = {}): SetCalibration => ({ path, fittedOn: false, before: m, after: m, top1: { before: 0.5, after: 0.5 }, ...extra });

  it('judges the blind sets and their pool, not the calibration set nor the tuned dev set', () => {
    const c = { fittedOn: ['cal.jsonl'], sets: [set('dev.jsonl', { tunedOn: true }), set('cal.jsonl', { fittedOn: true }), set('test.jsonl'), set('pooled (2 blind sets)'), set('pooled (2 blind sets) without Chagas', { reportedOnly: true })] };
    const names = [...new Set(freeTextCalibrationTargets(c).map((t) => t.name.split(' ')[0] + (t.name.startsWith('pooled') ? ' blind' : '')))];
    assert.deepEqual(names, ['test', 'pooled blind']);
    const text = formatFreeTextCalibration(c);
    assert.match(text, /dev\.jsonl \(tuned on: optimistic, no goal judged\)/);
    assert.match(text, /cal\.jsonl \(calibrated on\)/);
    assert.match(text, /without Chagas \(reported, no goal judged\)/);
    // The truth under 1% with its count.
    assert.match(text, /truth < 1%: 0\.0% \(0 of 2\)/);
    assert.match(text, /truth at rank 1 50\.0%/);
  });
});

import assert from 'node:assert/strict';
import { paramsFromFlags } from '../../src/cli/build-command.js';
import { fitParams } from '../../src/cli/build-run.js';
import { DEFAULT_GATE_STAGE } from '../../kg-build/train-gate-stage.js';

describe('build: the cross-fit KG trains no gate the fit never reads (issue 49)', () => {
  const params = paramsFromFlags({ source: ['ddxplus:x'], hierarchy: 'icd10', subcategories: 'auto', categories: 'auto', batchSize: 5000, testFraction: 0.2, seed: 7 });

  it('with the gate off (the default, or a hand-built config without one) the fit build turns gate training off and keeps every other parameter', () => {
    for (const config of [{ gate: { mode: 'off' as const, theta1: null, theta2: null } }, {}]) {
      const fit = fitParams(params, config);
      assert.equal(fit.gate?.maxExamples, 0);
      assert.notEqual(DEFAULT_GATE_STAGE.maxExamples, 0, 'the served build trains one');
      const { gate: _fitGate, ...rest } = fit;
      const { gate: _gate, ...served } = params;
      assert.deepEqual(rest, served);
    }
  });

  it('with the gate on or auto the fit KG keeps the served build gate, so the fit sees the served path', () => {
    for (const mode of ['on', 'auto'] as const) assert.equal(fitParams(params, { gate: { mode, theta1: null, theta2: null } }), params);
  });

  it('keeps gate options given to the build (thresholds targets, seed) beside the switch', () => {
    const withGate = { ...params, gate: { seed: 3, epochs: 4 } };
    assert.deepEqual(fitParams(withGate, {}).gate, { seed: 3, epochs: 4, maxExamples: 0 });
  });
});

import { strict as assert } from 'node:assert';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { diagnoseRequestSchema } from '../../src/http/schemas.js';
import { toDiagnoseInput } from '../../src/http/to-diagnose-input.js';
import { gateDeps, NO_GATE_ARTIFACTS } from '../../src/query/load-gate.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';

const schema = diagnoseRequestSchema(1000);
const privacy = { dropDemographics: false };

describe('gate options over HTTP and in config', () => {
  it('options.gate / gateThresholds / retrieval are validated and reach the query contract', () => {
    const body = schema.parse({ text: 'fever', options: { gate: 'on', gateThresholds: { theta1: 0.4, theta2: 0.2 }, retrieval: 'find' } });
    const o = toDiagnoseInput(body, privacy).options;
    assert.deepEqual([o.gate, o.gateThresholds, o.retrieval], ['on', { theta1: 0.4, theta2: 0.2 }, 'find']);
    const plain = toDiagnoseInput(schema.parse({ text: 'fever' }), privacy).options;
    assert.deepEqual(['gate', 'gateThresholds', 'retrieval'].filter((k) => k in plain), [], 'absent stays absent (defaults apply downstream)');
    for (const bad of [{ gate: 'maybe' }, { gateThresholds: { theta1: 1.5 } }, { gateThresholds: { alpha: 1 } }, { retrieval: 'chunks' }]) {
      assert.equal(schema.safeParse({ text: 'fever', options: bad }).success, false, JSON.stringify(bad));
    }
  });

  it('DXGRAPH_GATE* are validated; thresholds unset defer to the build, set ones win over it', () => {
    assert.deepEqual(loadConfig({}).gate, { mode: 'off', theta1: null, theta2: null });
    assert.deepEqual(loadConfig({ DXGRAPH_GATE: 'auto', DXGRAPH_GATE_THETA1: '0.4' }).gate, { mode: 'auto', theta1: 0.4, theta2: null });
    assert.throws(() => loadConfig({ DXGRAPH_GATE: 'always' }), (e: unknown) => e instanceof ConfigError && /DXGRAPH_GATE/.test(e.message));
    assert.throws(() => loadConfig({ DXGRAPH_GATE_THETA1: '2' }), (e: unknown) => e instanceof ConfigError && /DXGRAPH_GATE_THETA1/.test(e.message));
    assert.throws(() => loadConfig({ DXGRAPH_GATE_THETA1: '0.2', DXGRAPH_GATE_THETA2: '0.3' }), (e: unknown) => e instanceof ConfigError && /DXGRAPH_GATE_THETA2/.test(e.message));

    const embeddings = new HashedEmbedder({ dim: 8 });
    const calibrated = { ...NO_GATE_ARTIFACTS, thresholds: { theta1: 0.27, theta2: 0.24 } };
    const fromBuild = gateDeps({ artifacts: calibrated, config: { mode: 'auto', theta1: null, theta2: null }, embeddings }).gate.params;
    assert.deepEqual([fromBuild.theta1, fromBuild.theta2], [0.27, 0.24]);
    const fromConfig = gateDeps({ artifacts: calibrated, config: { mode: 'auto', theta1: 0.5, theta2: null }, embeddings }).gate.params;
    assert.deepEqual([fromConfig.theta1, fromConfig.theta2], [0.5, 0.24]);
    const defaults = gateDeps({ artifacts: NO_GATE_ARTIFACTS, config: { mode: 'auto', theta1: null, theta2: null }, embeddings });
    assert.deepEqual([defaults.gate.params.theta1, defaults.gate.params.theta2, defaults.find], [0.6, 0.3, null]);
    assert.throws(() => gateDeps({ artifacts: calibrated, config: { mode: 'on', theta1: 0.1, theta2: null }, embeddings }), ConfigError);
  });
});

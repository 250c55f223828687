import assert from 'node:assert/strict';
import { InputError } from '../../src/errors.js';
import { EngineFollowUpRanker } from '../../src/followups/pipeline-ranker.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { diagnose, selectFollowUpRanker, type DiagnoseDeps } from '../../src/query/diagnose.js';
import { SigmaRanker } from '../../src/query/followups-sigma.js';
import type { QueryArtifacts } from '../../src/query/load-snapshot.js';
import { createQueryService, textInput } from '../../src/query/query-service.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import { tinyKg } from '../support/query-kg.js';
import { postJson, startFakeApp, type Harness } from './http-fakes.js';

/** Issue 6: the follow-up ranker of /v1/diagnose is selectable per request; information gain by default. */
describe('query: follow-up ranker per request', () => {
  it('defaults to information gain (measured better than sigma)', () => {
    assert.equal(DEFAULT_OPTIONS.followUpRanker, 'information-gain');
  });

  it('the query service wires both rankers: information gain by default, sigma on request', async () => {
    const fx = await tinyKg();
    const artifacts = { manifest: {} as QueryArtifacts['manifest'], featureIndex: fx.featureIndex, recordIndex: fx.recordIndex, records: fx.records };
    const graph = { read: async () => [] };
    const service = createQueryService({ graph, snapshot: fx.snapshot, artifacts, embedder: fx.embedder });
    const text = 'fever. No rash.';
    const byDefault = await service.diagnose(textInput(text));
    const sigma = await service.diagnose(textInput(text, { followUpRanker: 'sigma' }));
    const ig = await service.diagnose(textInput(text, { followUpRanker: 'information-gain' }));
    assert.ok(byDefault.followUps.length > 0 && sigma.followUps.length > 0);
    assert.ok(byDefault.followUps.every((q) => q.ranker === 'information-gain'));
    assert.ok(sigma.followUps.every((q) => q.ranker === 'sigma'));
    assert.deepEqual(ig.followUps, byDefault.followUps);
    // The ranker changes the questions, not the differential.
    assert.deepEqual(sigma.differential, byDefault.differential);
    // Information gain is bounded by the entropy of the differential (3 diseases: log2 3 bits).
    assert.ok(byDefault.followUps.every((q) => q.score > 0 && q.score <= Math.log2(3) + 1e-9), JSON.stringify(byDefault.followUps));
    // Follow-ups never ask about what the description already matched.
    const matched = new Set(byDefault.trace.matches.map((m) => m.featureId));
    assert.ok(byDefault.followUps.every((q) => !matched.has(q.featureId)));
  });

  it('a ranker that is not wired is a 400 naming options.followUpRanker; a single hand-wired ranker answers every request', async () => {
    const sigma = new SigmaRanker();
    const only = { followUpRanker: sigma, followUpRankers: { 'information-gain': new EngineFollowUpRanker('information-gain') } };
    assert.throws(() => selectFollowUpRanker(only, 'sigma'), (e: unknown) => e instanceof InputError && e.field === 'options.followUpRanker');
    assert.equal(selectFollowUpRanker(only, undefined), only.followUpRankers['information-gain']);
    assert.equal(selectFollowUpRanker({ followUpRanker: sigma }, 'information-gain'), sigma);

    const fx = await tinyKg();
    const d: DiagnoseDeps = { graph: { read: async () => [] }, ...fx, reasoners: [new EvidenceReasoner()], ...only, differencesPerDisease: 10 };
    await assert.rejects(diagnose(d, textInput('fever', { followUpRanker: 'sigma' })), (e: unknown) => e instanceof InputError && e.field === 'options.followUpRanker');
  });

  describe('over HTTP (fake query service)', () => {
    let h: Harness;
    before(async () => {
      h = await startFakeApp({});
    });
    after(() => h.close());

    it('options.followUpRanker reaches the query service; absent = information gain; anything else = 400', async () => {
      assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough', options: { followUpRanker: 'sigma' } })).status, 200);
      assert.equal(h.calls.at(-1)!.options.followUpRanker, 'sigma');
      assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough' })).status, 200);
      assert.equal(h.calls.at(-1)!.options.followUpRanker, 'information-gain');
      for (const bad of ['random', 'Sigma', 3]) {
        const r = await postJson(`${h.url}/v1/diagnose`, { text: 'cough', options: { followUpRanker: bad } });
        assert.equal(r.status, 400, String(bad));
        assert.equal(r.json.error.field, 'options.followUpRanker');
      }
    });
  });
});

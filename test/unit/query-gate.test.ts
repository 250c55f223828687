import { strict as assert } from 'node:assert';
import type { Embeddings } from '@langchain/core/embeddings';
import { InputError } from '../../src/errors.js';
import { chunkIndexFromVectors, recordChunks } from '../../src/gate/chunk-index.js';
import { DEFAULT_GATE_PARAMS, type SentenceLabel } from '../../src/gate/types.js';
import { WARN_MIN_FOLLOWUPS, type QueryGate } from '../../src/query/apply-gate.js';
import { diagnose, type DiagnoseDeps } from '../../src/query/diagnose.js';
import { SigmaRanker } from '../../src/query/followups-sigma.js';
import { textInput } from '../../src/query/query-service.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import type { Reasoner } from '../../src/reasoners/reasoner.js';
import { MemoryVectorIndex } from '../support/snapshot-fixture.js';
import { tinyKg } from '../support/query-kg.js';
import { constantClassifier } from './query-gate-support.js';


/** A reasoner that records what it was given (the path taken shows in its context). */
function spyReasoner(): Reasoner & { seen: { retrieved: number; votes: number; differencesKg: number }[] } {
  const inner = new EvidenceReasoner();
  const seen: { retrieved: number; votes: number; differencesKg: number }[] = [];
  return {
    name: 'evidence',
    seen,
    reason: async (ctx) => {
      seen.push({ retrieved: ctx.retrieved.length, votes: ctx.votes.length, differencesKg: ctx.differencesKg.length });
      return inner.reason(ctx);
    },
  };
}

async function deps(opts: { label?: SentenceLabel | null; mode?: QueryGate['mode'] } = {}) {
  const fx = await tinyKg();
  const reads: string[] = [];
  const graph = { read: async (name: string) => (reads.push(name), []) };
  const reasoner = spyReasoner();
  const embeddings = fx.embedder.embeddings as Embeddings;
  const dim = fx.featureIndex.dim;
  const classifier = opts.label === null ? null : constantClassifier(opts.label ?? 'B', dim);
  const d: DiagnoseDeps = {
    graph, ...fx, reasoners: [reasoner], followUpRanker: new SigmaRanker(), differencesPerDisease: 10,
    gate: { classifier, embeddings, mode: opts.mode ?? 'on', params: { ...DEFAULT_GATE_PARAMS } },
  };
  return { d, reads, reasoner, fx };
}

/** Five sentences: at the short-input floor, so I_norm is FIND's plain density. */
const TEXT = 'Chest pain. Sweating. No cough. No rash. No sore throat.';

describe('query: the gate on the diagnose path (FIND §3.2.1)', () => {
  it("direct (I_norm ≥ θ1): no vote, no differences-KG read, no retrieval; the reasoner sees only the matches", async () => {
    const { d, reads, reasoner } = await deps({ label: 'A' });
    const res = await diagnose(d, textInput(TEXT));
    assert.equal(res.trace.gate?.decision, 'direct');
    assert.equal(res.trace.gate?.score, 1);
    assert.deepEqual(res.trace.gate?.sentences.map((s) => s.label), ['A', 'A', 'A', 'A', 'A']);
    assert.equal(res.trace.gate?.warning, null);
    assert.deepEqual(reads, [], 'no graph traversal');
    for (const skipped of ['vote', 'differencesKg', 'retrieve']) assert.equal(res.trace.timingsMs[skipped], undefined, skipped);
    for (const ran of ['decompose', 'gate', 'match', 'reason', 'total']) assert.ok(res.trace.timingsMs[ran]! >= 0, ran);
    assert.deepEqual(reasoner.seen, [{ retrieved: 0, votes: 0, differencesKg: 0 }]);
    assert.deepEqual([res.trace.retrieved, res.trace.differencesKg, res.trace.votes, res.trace.chosenSubcategory], [[], [], [], null]);
    assert.equal(res.differential[0]!.disease, 'Angina', 'the naive-Bayes answer on the matched features');
    assert.ok(res.followUps.length > 0, 'follow-ups among the leading diseases');
  });

  it('retrieve (θ2 ≤ I_norm < θ1): the full path, no warning', async () => {
    const { d, reads, reasoner } = await deps({ label: 'B' });
    const res = await diagnose(d, textInput(TEXT, { topK: 4 }));
    assert.equal(res.trace.gate?.decision, 'retrieve');
    assert.equal(res.trace.gate?.score, 0.5);
    assert.equal(res.trace.gate?.warning, null);
    assert.deepEqual(reads, ['query/differences-kg']);
    for (const ran of ['vote', 'differencesKg', 'retrieve']) assert.ok(res.trace.timingsMs[ran]! >= 0, ran);
    assert.equal(res.trace.retrieved.length, 4);
    assert.equal(reasoner.seen[0]!.retrieved, 4);
    assert.ok(reasoner.seen[0]!.votes > 0);
  });

  it('retrieve-warn (I_norm < θ2): the full path plus the warning and the follow-ups that help most', async () => {
    const { d, reads } = await deps({ label: 'C' });
    const res = await diagnose(d, textInput('fever', { followUps: 1 }));
    assert.equal(res.trace.gate?.decision, 'retrieve-warn');
    assert.ok(Math.abs(res.trace.gate!.score - 0.1 / 5) < 1e-9, 'one C sentence, floored to five');
    assert.match(res.trace.gate!.warning!, /insufficient/);
    assert.ok(!res.trace.gate!.warning!.includes('fever'), 'no patient text in the warning');
    // "fever" ties its subcategories: each near-tied one's differences KG is read (diagnose.ts nearTies).
    assert.ok(reads.length >= 1 && reads.every((r) => r === 'query/differences-kg'), reads.join(','));
    assert.ok(res.trace.retrieved.length > 0);
    assert.equal(res.followUps.length, WARN_MIN_FOLLOWUPS, 'asked for 1: a warned answer carries the few questions that help most');
    const off = await diagnose(d, textInput('fever', { followUps: 1, gate: 'off' }));
    assert.equal(off.followUps.length, 1);
    assert.deepEqual(res.followUps[0], off.followUps[0], 'the same ranking, only longer');
  });

  it('off (config or request) and auto without a classifier: trace.gate is null and the path is the full one', async () => {
    for (const [setup, req] of [[{ mode: 'off' as const }, undefined], [{ mode: 'on' as const, label: 'A' as const }, 'off' as const], [{ mode: 'auto' as const, label: null }, 'auto' as const]] as const) {
      const { d, reads } = await deps(setup);
      const res = await diagnose(d, textInput(TEXT, req ? { gate: req } : {}));
      assert.equal(res.trace.gate, null, JSON.stringify(setup));
      assert.equal(res.trace.timingsMs.gate, undefined);
      assert.deepEqual(reads, ['query/differences-kg']);
    }
    const { d } = await deps({ mode: 'off' });
    delete d.gate;
    assert.equal((await diagnose(d, textInput(TEXT))).trace.gate, null, 'no gate deps at all');
  });

  it("'on' without a classifier and disordered thresholds are 400s naming the option", async () => {
    const { d } = await deps({ mode: 'auto', label: null });
    await assert.rejects(diagnose(d, textInput(TEXT, { gate: 'on' })), (e: unknown) => e instanceof InputError && e.field === 'options.gate' && /no gate classifier/.test(e.message));
    const on = (await deps({ label: 'B' })).d;
    await assert.rejects(diagnose(on, textInput(TEXT, { gateThresholds: { theta1: 0.2, theta2: 0.4 } })), (e: unknown) => e instanceof InputError && e.field === 'options.gateThresholds');
  });

  it('per-request thresholds move the decision; the upper edge is inclusive', async () => {
    const { d } = await deps({ label: 'B' }); // I_norm 0.5
    assert.equal((await diagnose(d, textInput(TEXT, { gateThresholds: { theta1: 0.5 } }))).trace.gate?.decision, 'direct');
    assert.equal((await diagnose(d, textInput(TEXT, { gateThresholds: { theta1: 0.51 } }))).trace.gate?.decision, 'retrieve');
    assert.equal((await diagnose(d, textInput(TEXT, { gateThresholds: { theta1: 0.9, theta2: 0.51 } }))).trace.gate?.decision, 'retrieve-warn');
  });

  it('short inputs: missing sentences weigh 0 up to five, so one useful sentence is not a dense description', async () => {
    const { d } = await deps({ label: 'B' });
    const one = await diagnose(d, textInput('Chest pain.'));
    assert.ok(Math.abs(one.trace.gate!.score - 0.1) < 1e-9);
    assert.equal(one.trace.gate?.decision, 'retrieve-warn');
    assert.ok(one.trace.gate?.warning);
    const five = await diagnose(d, textInput(TEXT));
    assert.equal(five.trace.gate?.score, 0.5);
  });

  it('structured findings are assessed one sentence each, absent ones negated', async () => {
    const { d } = await deps({ label: 'B' });
    const input = { ...textInput(''), text: null, findings: [{ text: 'fever', polarity: 'present' as const, code: null, valueCode: null }, { text: 'rash', polarity: 'absent' as const, code: null, valueCode: null }] };
    const res = await diagnose(d, input);
    assert.deepEqual(res.trace.gate?.sentences.map((s) => s.text), ['fever', 'no rash']);
    assert.ok(Math.abs(res.trace.gate!.score - (2 * 0.5) / 5) < 1e-9);
  });
});

describe('query: FIND retrieval mode', () => {
  it("'find' ranks records by retrieved chunks from the A/B sentences; without a chunk index it is a 400", async () => {
    const { d, fx } = await deps({ label: 'B' });
    await assert.rejects(diagnose(d, textInput(TEXT, { retrieval: 'find' })), (e: unknown) => e instanceof InputError && e.field === 'options.retrieval');
    const rows = [...fx.records.values()];
    const chunks = rows.flatMap((r) => recordChunks(r));
    const vecs = (await fx.embedder.embeddings.embedDocuments(chunks.map((c) => c.text))).map((v) => Float32Array.from(v));
    const embeddings = fx.embedder.embeddings as Embeddings;
    d.find = { chunkIndex: chunkIndexFromVectors(new MemoryVectorIndex(fx.featureIndex.dim, chunks.map((c) => c.id), vecs)), embeddings, classifier: null, options: { topM: 20 } };
    const res = await diagnose(d, textInput('chest pain\nsweating', { retrieval: 'find', topK: 3 }));
    assert.equal(res.trace.retrieved.length, 3);
    // r7 and r8 hold both query sentences as chunks (2 each); r9 only chest pain (1).
    assert.deepEqual(res.trace.retrieved.slice(0, 2).map((r) => r.id).sort(), ['r7', 'r8']);
    assert.ok(res.trace.retrieved.every((r) => r.diagnosis === 'Angina'));
    const record = await diagnose(d, textInput('chest pain\nsweating', { topK: 3 }));
    assert.equal(record.trace.retrieved.length, 3, "'record' mode still works beside it");
  });
});

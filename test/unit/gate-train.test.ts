import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import { loadClassifier } from '../../src/gate/classifier-store.js';
import { mulberry32 } from '../../src/gate/sentence-classifier.js';
import { trainGate, type GateTrainingExample } from '../../src/gate/train-gate.js';
import type { Diagnoser, RetrievalProbe } from '../../src/gate/masking-annotation.js';

const KEY = ['high fever of 39 C', 'severe diffuse myalgia', 'sudden shaking chills', 'temperature 38.9 since yesterday'];
const HELPFUL = ['dry cough at night', 'sore throat when swallowing', 'runny nose and sneezing', 'cough with clear sputum'];
const FILLER = ['works as a teacher', 'lives with two cats', 'likes gardening on weekends', 'drove here by car', 'married with children'];
const isKey = (s: string) => /fever|myalgia|chills|temperature/.test(s);

/** Flu needs two key sentences: every example carries exactly two, so masking either breaks it. */
const diagnoser: Diagnoser = { diagnose: async (ss) => (ss.filter(isKey).length >= 2 ? ['flu'] : ['cold']) };
const probe: RetrievalProbe = { retrievesGold: async ({ sentence }) => /cough|throat|nose/.test(sentence) };

function examples(n: number): GateTrainingExample[] {
  const rng = mulberry32(3);
  const pick = (pool: string[]) => pool[Math.floor(rng() * pool.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const [k1, k2] = [KEY[i % 4]!, KEY[(i + 1) % 4]!];
    const lines = [k1, pick(HELPFUL), pick(FILLER), k2, pick(FILLER)];
    return { id: `rec:${i}`, goldDiseaseId: 'flu', text: lines.join('\n') };
  });
}

describe('gate: trainGate (build stage)', () => {
  let dir = '';
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'gate-train-'))));
  after(async () => rm(dir, { recursive: true, force: true }));
  const embedder = new HashedEmbedder({ dim: 128 });

  it('annotates, trains, evaluates on held-out records and saves classifier + metrics', async () => {
    const out = { classifierPath: join(dir, 'gate', 'classifier.json'), metricsPath: join(dir, 'gate', 'metrics.json') };
    const r = await trainGate(examples(60), { diagnoser, probe, embedder, embedderId: embedder.id }, out, { heldOutFraction: 0.25 });
    assert.ok(r.ok, r.ok ? '' : r.error);
    const { report } = r.value;
    assert.deepEqual(report.annotation.labels, { A: 120, B: 60, C: 120 });
    assert.equal(report.heldOut.sentences, 75); // 15 held-out records × 5 sentences
    assert.equal(report.trainSentences, 225);
    assert.ok(report.heldOut.accuracy! >= 0.9, `held-out accuracy ${report.heldOut.accuracy}`);
    assert.ok(report.heldOut.accuracy! > report.heldOut.majorityBaseline!);
    for (const l of ['A', 'B', 'C'] as const) assert.ok(report.heldOut.perLabel[l].support > 0);

    const saved = JSON.parse(await readFile(out.metricsPath, 'utf8'));
    assert.deepEqual(saved.heldOut.perLabel, report.heldOut.perLabel);
    const loaded = await loadClassifier(out.classifierPath, { expectEmbedder: embedder.id });
    assert.ok(loaded.ok);
    assert.equal(loaded.value.predict(embedder.embedVector('severe diffuse myalgia'), 'severe diffuse myalgia').label, 'A');
    assert.equal(loaded.value.predict(embedder.embedVector('likes gardening on weekends'), 'likes gardening on weekends').label, 'C');
  });

  it('returns an error value when there is too little to learn from', async () => {
    const out = { classifierPath: join(dir, 'x', 'c.json'), metricsPath: join(dir, 'x', 'm.json') };
    const r = await trainGate(examples(3), { diagnoser, probe, embedder, embedderId: embedder.id }, out);
    assert.ok(!r.ok && /needs ≥ 50 annotated sentences/.test(r.error));
  });
});

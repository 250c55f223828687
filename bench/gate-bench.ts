/**
 * Gate bench on the DDXPlus sample (offline: hashed embedder, faiss-node flat indexes).
 *   npx tsx bench/gate-bench.ts [--dir datasets/ddxplus] [--annotate 200] [--test 300]
 * Records split by seeded hash into index 60% / gate-training 20% / test 20% (no record is both
 * retrieved and annotated, or it would retrieve itself). The diagnoser for the masking
 * annotation is a kNN vote over the index records (the stand-in for the offline pipeline).
 * Prints: annotation + held-out classifier metrics; I_norm on full vs initial-evidence-only
 * test inputs (means, decision shares, AUROC separating them); AUROC of I_norm for the direct
 * (kNN) answer being correct; latency in µs per sentence (segment, embed, classify, assess).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '../src/adapters/embeddings/hashed-embedder.js';
import { FaissVectorIndex } from '../src/adapters/faiss/vector-index.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import { chunkIndexFromVectors, recordChunks } from '../src/gate/chunk-index.js';
import { calibrateThresholds } from '../src/gate/calibrate-thresholds.js';
import { createGate } from '../src/gate/gate.js';
import { decideGate } from '../src/gate/gate-decision.js';
import type { Diagnoser } from '../src/gate/masking-annotation.js';
import { createChunkRetrievalProbe } from '../src/gate/retrieval-probe.js';
import { segmentSentences } from '../src/gate/segment-sentences.js';
import { mulberry32 } from '../src/gate/sentence-classifier.js';
import { trainGate } from '../src/gate/train-gate.js';
import { DEFAULT_GATE_PARAMS, type GateTrace } from '../src/gate/types.js';
import { DdxplusSource } from '../src/sources/ddxplus/ddxplus-source.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const dir = arg('dir', 'datasets/ddxplus');
const nAnnotate = Number(arg('annotate', '200'));
const nTest = Number(arg('test', '300'));

const source = new DdxplusSource(dir, { strict: false });
const records: NormalizedRecord[] = [];
for await (const r of source.records()) records.push(r);
const rng = mulberry32(42);
const part = records.map(() => rng());
const indexRecs = records.filter((_, i) => part[i]! < 0.6);
const gateRecs = records.filter((_, i) => part[i]! >= 0.6 && part[i]! < 0.8).slice(0, nAnnotate);
const testRecs = records.filter((_, i) => part[i]! >= 0.8).slice(0, nTest);
console.log(`records ${records.length}: index ${indexRecs.length}, gate-training ${gateRecs.length}, test ${testRecs.length}`);

const embedder = new HashedEmbedder({ dim: 512 });
const recordIndex = FaissVectorIndex.build({ kind: 'flat', dim: 512, ids: indexRecs.map((r) => r.id), vectors: indexRecs.map((r) => embedder.embedVector(r.text)) });
const diseaseOf = new Map(indexRecs.map((r) => [r.id, r.diagnosis]));
const chunks = indexRecs.flatMap((r) => recordChunks(r));
const chunkIndex = chunkIndexFromVectors(FaissVectorIndex.build({ kind: 'flat', dim: 512, ids: chunks.map((c) => c.id), vectors: chunks.map((c) => embedder.embedVector(c.text)) }));
console.log(`chunk index: ${chunks.length} chunks`);

/** kNN vote: similarity-weighted diagnoses of the 15 nearest index records. */
const knn: Diagnoser = {
  async diagnose(sentences) {
    if (sentences.length === 0) return [];
    const votes = new Map<string, number>();
    for (const h of recordIndex.search(embedder.embedVector(sentences.join('\n')), 15)) votes.set(diseaseOf.get(h.id)!, (votes.get(diseaseOf.get(h.id)!) ?? 0) + h.score);
    return [...votes.entries()].sort((a, b) => b[1] - a[1]).map(([d]) => d);
  },
};
const probe = createChunkRetrievalProbe({ embedder, chunkIndex, diseaseOfRecord: (id) => diseaseOf.get(id) ?? null }, { topM: 10, minSimilarity: 0.5 });

const tmp = await mkdtemp(join(tmpdir(), 'gate-bench-'));
const t0 = performance.now();
const trained = await trainGate(
  gateRecs.map((r) => ({ id: r.id, text: r.text, goldDiseaseId: r.diagnosis })),
  { diagnoser: knn, probe, embedder, embedderId: embedder.id },
  { classifierPath: join(tmp, 'gate-classifier.json'), metricsPath: join(tmp, 'gate-metrics.json') },
  { annotation: { maxExamples: nAnnotate, concurrency: 1 } },
);
await rm(tmp, { recursive: true, force: true });
if (!trained.ok) throw new Error(trained.error);
const { report, classifier } = trained.value;
const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
console.log(`\ngate training (${((performance.now() - t0) / 1000).toFixed(1)} s): annotation ${JSON.stringify(report.annotation)}`);
console.log(`held-out: ${report.heldOut.sentences} sentences, accuracy ${pct(report.heldOut.accuracy)} (majority baseline ${pct(report.heldOut.majorityBaseline)})`);
for (const l of ['A', 'B', 'C'] as const) {
  const m = report.heldOut.perLabel[l];
  console.log(`  ${l}: support ${m.support}, accuracy ${pct(m.accuracy)}, precision ${pct(m.precision)}`);
}

const gate = createGate({ classifier, embedder, params: DEFAULT_GATE_PARAMS });
const initialText = (r: NormalizedRecord) => {
  const f = r.findings.find((x) => x.code === r.initialFindingCode);
  return [`age: ${r.age ?? 'unknown'}`, `sex: ${r.sex === 'M' ? 'male' : r.sex === 'F' ? 'female' : 'unknown'}`, f?.text ?? ''].join('\n');
};
const full: { g: GateTrace; correct: boolean }[] = [];
const initial: { g: GateTrace; correct: boolean }[] = [];
for (const r of testRecs) {
  for (const [text, bucket] of [[r.text, full], [initialText(r), initial]] as const) {
    const g = await gate.assess(text);
    const answer = await knn.diagnose(segmentSentences(text));
    bucket.push({ g, correct: answer[0] === r.diagnosis });
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const share = (xs: { g: GateTrace }[], d: string) => pct(xs.filter((x) => x.g.decision === d).length / Math.max(1, xs.length));
for (const [name, xs] of [['full evidence', full], ['initial evidence only', initial]] as const) {
  console.log(`\n${name}: mean I_norm ${mean(xs.map((x) => x.g.score)).toFixed(3)}, kNN direct accuracy ${pct(xs.filter((x) => x.correct).length / xs.length)}; direct ${share(xs, 'direct')}, retrieve ${share(xs, 'retrieve')}, retrieve-warn ${share(xs, 'retrieve-warn')}`);
}
console.log(`AUROC of I_norm separating full from initial-only inputs: ${auroc(full.map((x) => x.g.score), initial.map((x) => x.g.score)).toFixed(3)}`);
const all = [...full, ...initial];
console.log(`AUROC of I_norm for the direct answer being correct (both input kinds): ${auroc(all.filter((x) => x.correct).map((x) => x.g.score), all.filter((x) => !x.correct).map((x) => x.g.score)).toFixed(3)}`);
console.log(`  (full evidence only: ${auroc(full.filter((x) => x.correct).map((x) => x.g.score), full.filter((x) => !x.correct).map((x) => x.g.score)).toFixed(3)})`);

// Thresholds calibrated on the first half of the test records, applied to the second half.
const half = Math.floor(testRecs.length / 2);
const calib = calibrateThresholds([...full.slice(0, half), ...initial.slice(0, half)].map((x) => ({ score: x.g.score, correct: x.correct })));
const th = { theta1: calib.theta1 ?? DEFAULT_GATE_PARAMS.theta1, theta2: Math.min(calib.theta2 ?? DEFAULT_GATE_PARAMS.theta2, calib.theta1 ?? 1) };
console.log(`\ncalibrated on ${half} test records (full + initial, target 90% direct accuracy): θ1 ${calib.theta1?.toFixed(3) ?? 'none'}, θ2 ${calib.theta2?.toFixed(3) ?? 'none'}`);
for (const [name, xs] of [['full evidence', full.slice(half)], ['initial evidence only', initial.slice(half)]] as const) {
  const direct = xs.filter((x) => decideGate(x.g.score, th).decision === 'direct');
  const warn = xs.filter((x) => decideGate(x.g.score, th).decision === 'retrieve-warn');
  console.log(`  other half, ${name}: direct ${pct(direct.length / xs.length)} (correct ${pct(direct.length ? direct.filter((x) => x.correct).length / direct.length : null)}), warn ${pct(warn.length / xs.length)}`);
}

// Latency, µs per sentence, over the test inputs' sentences.
const texts = testRecs.map((r) => r.text);
const sentences = texts.flatMap((t) => segmentSentences(t));
const vectors = sentences.map((s) => embedder.embedVector(s));
const time = (fn: () => unknown, n: number) => {
  fn(); // warm-up
  const s = performance.now();
  fn();
  return ((performance.now() - s) * 1000) / n;
};
console.log(`\nlatency over ${sentences.length} sentences (µs/sentence):`);
console.log(`  segment   ${time(() => texts.map((t) => segmentSentences(t)), sentences.length).toFixed(1)}`);
console.log(`  embed     ${time(() => sentences.map((s) => embedder.embedVector(s)), sentences.length).toFixed(1)}`);
console.log(`  classify  ${time(() => sentences.map((s, i) => classifier.predict(vectors[i]!, s)), sentences.length).toFixed(1)}`);
const s0 = performance.now();
for (const t of texts) await gate.assess(t);
console.log(`  assess (segment + embed + classify + I_norm) ${(((performance.now() - s0) * 1000) / sentences.length).toFixed(1)}`);

/** Mann-Whitney AUROC: P(score of a positive > score of a negative), ties count half. */
function auroc(pos: number[], neg: number[]): number {
  if (pos.length === 0 || neg.length === 0) return NaN;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

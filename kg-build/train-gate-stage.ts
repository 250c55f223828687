/**
 * Build stage: trains the information-density gate (FIND §3.2) on a bounded sample of the
 * build's training records and saves it in the build dir:
 *   1. sample `maxExamples` records for the masking annotation and `calibrationExamples`
 *      others (seeded, by hashed id) for calibration;
 *   2. diagnoser: the LLM when configured (src/gate/llm-diagnoser.ts), else the offline
 *      `direct` path on the in-memory KG (gate-diagnoser.ts: no Neo4j);
 *   3. probe: chunk retrieval over the distinct chunk texts (gate-probe.ts);
 *   4. trainGate (annotate → classifier → held-out metrics) → gate-classifier.json, gate-metrics.json;
 *   5. thresholds calibrated on the held-out calibration records (calibrate-gate.ts).
 * Not enough labels (e.g. a tiny source) is not a build failure: the gate entry is null
 * and the server runs with the gate off in 'auto' mode.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NamedEmbedder } from '../src/adapters/embeddings/index.js';
import type { VectorIndexLike } from '../src/adapters/faiss/types.js';
import type { GateEntry } from '../src/domain/artifacts.js';
import type { CalibrationTargets } from '../src/gate/calibrate-thresholds.js';
import { createLlmDiagnoser, loadGateDiagnosePrompt } from '../src/gate/llm-diagnoser.js';
import type { Diagnoser } from '../src/gate/masking-annotation.js';
import { segmentSentences } from '../src/gate/segment-sentences.js';
import { trainGate, type GateTrainingExample } from '../src/gate/train-gate.js';
import type { KgSnapshot } from '../src/query/kg-snapshot.js';
import { calibrateGate, type GateCalibration } from './calibrate-gate.js';
import { embedDistinctChunks, type EmbeddedChunks } from './distinct-chunks.js';
import { createOfflineDiagnoser } from './gate-diagnoser.js';
import { createDistinctChunkProbe } from './gate-probe.js';
import type { BuildLlm } from './llm-types.js';
import { stableHash } from './text.js';

export interface GateStageOptions {
  /** 0 turns gate training off. */
  maxExamples: number;
  /** With an LLM diagnoser (n+1 chat calls per record) the sample is capped lower. */
  maxExamplesLlm: number;
  /** Held-out training records for threshold calibration (offline diagnoser only). */
  calibrationExamples: number;
  /** Longer records are not annotated (each costs n+1 diagnoser calls). */
  maxSentences: number;
  seed: number;
  /** Classifier training epochs: 8 reach the held-out accuracy of the library's 20 here in 40% of the time. */
  epochs: number;
  /**
   * A direct answer skips retrieval, so it must be right ≥ 97% of the time at or above θ1;
   * below θ2 a direct answer is right ≤ 30% of the time (there the warning is deserved).
   */
  calibration: CalibrationTargets;
}

export const DEFAULT_GATE_STAGE: GateStageOptions = {
  maxExamples: 300, maxExamplesLlm: 40, calibrationExamples: 200, maxSentences: 60, seed: 7, epochs: 8,
  calibration: { directAccuracy: 0.97, warnAccuracy: 0.3, minSupport: 10 },
};

export interface GateStageInput {
  dir: string;
  snapshot: KgSnapshot;
  /** Training records with their disease id (records whose diagnosis mapped to no disease are left out). */
  records: readonly { id: string; diseaseId: string; text: string }[];
  embedder: NamedEmbedder;
  featureIndex: VectorIndexLike;
  llm: BuildLlm | null;
  /** The records' chunks by distinct text, embedded, when the caller has them (gate-artifacts-stage.ts); else computed here. */
  chunks?: EmbeddedChunks;
}

export interface GateStageOutcome {
  entry: GateEntry | null;
  /** Why there is no classifier, when there is none. */
  skipped: string | null;
  calibration: GateCalibration | null;
  /** Milliseconds: batched matching + chunk searches, annotation + training, calibration. */
  timings?: { prepare: number; train: number; calibrate: number; chunkIndex?: number };
}

export const GATE_FILES = { classifier: 'gate-classifier.json', metrics: 'gate-metrics.json' } as const;

export async function trainGateStage(input: GateStageInput, options: Partial<GateStageOptions> = {}): Promise<GateStageOutcome> {
  const opts = { ...DEFAULT_GATE_STAGE, ...options };
  const max = input.llm ? Math.min(opts.maxExamples, opts.maxExamplesLlm) : opts.maxExamples;
  if (max <= 0) return { entry: null, skipped: 'gate training turned off', calibration: null };
  // Sort keys hashed once per record (not twice per comparison: 3.4M sha256 calls at 100k).
  const keyed = input.records.map((r) => ({ r, key: stableHash(String(opts.seed), r.id) }));
  const ordered = keyed.sort((a, b) => cmp(a.key, b.key)).map((k) => k.r);
  const examples: GateTrainingExample[] = ordered.slice(0, max).map((r) => ({ id: r.id, text: r.text, goldDiseaseId: r.diseaseId }));
  const calibrationRecords = input.llm ? [] : ordered.slice(max, max + opts.calibrationExamples);

  const embeddings = input.embedder.embeddings;
  const offline = createOfflineDiagnoser({ snapshot: input.snapshot, embedder: input.embedder, featureIndex: input.featureIndex });
  const diagnoser: Diagnoser = input.llm
    ? createLlmDiagnoser(
        { chat: input.llm.chat, prompt: await loadGateDiagnosePrompt(input.llm.promptsDir ? { dir: input.llm.promptsDir } : {}) },
        { diseases: input.snapshot.diseases.map((d) => ({ id: d.id, name: d.name })), timeoutMs: input.llm.timeoutMs },
      )
    : offline;
  const diseaseOf = new Map(input.records.map((r) => [r.id, r.diseaseId] as const));
  const chunks = input.chunks ?? (await embedDistinctChunks(input.records, embeddings));
  const probe = await createDistinctChunkProbe({ embeddings, chunks, diseaseOfRecord: (id) => diseaseOf.get(id) ?? null });
  const t0 = performance.now();
  // Warm both caches in batched calls: every sentence of the sample at once.
  const sentences = examples.flatMap((e) => segmentSentences(e.text));
  await probe.prepare(sentences);
  await offline.prepare([...sentences, ...calibrationRecords.flatMap((r) => segmentSentences(r.text))]);

  const t1 = performance.now();
  const paths = { classifierPath: join(input.dir, GATE_FILES.classifier), metricsPath: join(input.dir, GATE_FILES.metrics) };
  const trained = await trainGate(examples, { diagnoser, probe, embedder: embeddings, embedderId: input.embedder.id }, paths, {
    annotation: { maxExamples: max, maxSentences: opts.maxSentences, concurrency: input.llm ? (input.llm.concurrency ?? 4) : 1 },
    seed: opts.seed,
    classifier: { epochs: opts.epochs },
  });
  if (!trained.ok) return { entry: null, skipped: trained.error, calibration: null };

  const t2 = performance.now();
  const calibration = calibrationRecords.length > 0
    ? await calibrateGate({ classifier: trained.value.classifier, embeddings, diagnoser: offline, records: calibrationRecords }, { targets: opts.calibration })
    : null;
  // The calibration goes into the metrics file beside the training report.
  const report = JSON.parse(await readFile(paths.metricsPath, 'utf8')) as Record<string, unknown>;
  await writeFile(paths.metricsPath, JSON.stringify({ ...report, calibration }, null, 2) + '\n', 'utf8');
  const timings = { prepare: Math.round(t1 - t0), train: Math.round(t2 - t1), calibrate: Math.round(performance.now() - t2) };
  return { entry: { classifier: GATE_FILES.classifier, metrics: GATE_FILES.metrics, thresholds: calibration?.thresholds ?? null }, skipped: null, calibration, timings };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

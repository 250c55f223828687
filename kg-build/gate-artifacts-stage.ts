/**
 * Build stage 7b (after the record/feature indexes, before the Neo4j load): the gate's
 * artifacts in the build dir — the FIND chunk index (chunk-index-stage.ts) and the trained
 * gate (train-gate-stage.ts) — named in manifest.json (rewritten atomically). The build dir
 * is not `current` until the pipeline switches the pointer, so a server never sees a
 * manifest without its files.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NamedEmbedder } from '../src/adapters/embeddings/index.js';
import { buildDir, type BuildManifest } from '../src/domain/artifacts.js';
import type { DiagnosticKg } from '../src/domain/kg.js';
import { buildSnapshot } from '../src/query/kg-snapshot.js';
import type { IndexFactory } from './build-indexes.js';
import { buildChunkIndex, isSearchable } from './chunk-index-stage.js';
import { embedDistinctChunks } from './distinct-chunks.js';
import type { BuildLlm } from './llm-types.js';
import { readSpool } from './scan-records.js';
import { trainGateStage, type GateStageOptions, type GateStageOutcome } from './train-gate-stage.js';
import { embedAll } from './vectors.js';

export interface GateArtifactsInput {
  dataDir: string;
  manifest: BuildManifest;
  kg: DiagnosticKg;
  spoolPath: string;
  diseaseOf: ReadonlyMap<string, string>;
  embedder: NamedEmbedder;
  factory: IndexFactory;
  llm: BuildLlm | null;
}

export interface GateArtifactsOutcome {
  manifest: BuildManifest;
  gate: GateStageOutcome;
  /** Milliseconds spent on the chunk index (the gate's own parts are in gate.timings). */
  chunkIndexMs: number;
}

export async function gateArtifactsStage(input: GateArtifactsInput, options: Partial<GateStageOptions> = {}): Promise<GateArtifactsOutcome> {
  const dir = buildDir(input.dataDir, input.manifest.buildId);
  const embeddings = input.embedder.embeddings;
  const records: { id: string; diseaseId: string; text: string }[] = [];
  for await (const row of readSpool(input.spoolPath)) {
    const diseaseId = input.diseaseOf.get(row.diagnosis);
    if (diseaseId !== undefined) records.push({ id: row.id, diseaseId, text: row.text });
  }
  const t0 = performance.now();
  const chunks = await embedDistinctChunks(records, embeddings);
  const chunkIndex = await buildChunkIndex({ dir, chunks, factory: input.factory, dim: input.manifest.embeddingDim });

  const chunkIndexMs = Math.round(performance.now() - t0);
  let gate: GateStageOutcome = { entry: null, skipped: 'the index factory cannot search (gate training needs a searchable feature index)', calibration: null };
  const featureIndex = input.factory.create({ kind: 'flat', dim: input.manifest.embeddingDim });
  if (isSearchable(featureIndex)) {
    featureIndex.add(input.kg.features.map((f) => f.id), await embedAll(embeddings, input.kg.features.map((f) => f.text)));
    gate = await trainGateStage(
      { dir, snapshot: buildSnapshot(input.kg), records, embedder: input.embedder, featureIndex, llm: input.llm, chunks },
      options,
    );
  }
  const manifest: BuildManifest = { ...input.manifest, chunkIndex, ...(gate.entry ? { gate: gate.entry } : {}) };
  const path = join(dir, 'manifest.json');
  await writeFile(`${path}.tmp`, JSON.stringify(manifest, null, 2));
  await rename(`${path}.tmp`, path);
  return { manifest, gate: { ...gate, timings: { prepare: 0, train: 0, calibrate: 0, ...gate.timings, chunkIndex: chunkIndexMs } }, chunkIndexMs };
}

/**
 * Start-up loading of the gate's build artifacts (docs/gate.md): the A/B/C sentence
 * classifier with its calibrated thresholds, and the FIND chunk index. A build without them
 * (older builds, or too few labels at training) loads as nulls: the gate then runs as 'off'
 * in 'auto' mode and `options.retrieval: 'find'` is refused. Files the manifest names but
 * that are missing or corrupt are ArtifactErrors, as for the other indexes.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VectorIndexLike } from '../adapters/faiss/types.js';
import { buildDir, type BuildManifest } from '../domain/artifacts.js';
import { ArtifactError, ConfigError, errorMessage } from '../errors.js';
import type { ChunkIndex } from '../gate/chunk-index.js';
import { loadClassifier } from '../gate/classifier-store.js';
import { parseGateParams, type GateMode } from '../gate/gate-params.js';
import type { SentenceClassifier } from '../gate/sentence-classifier.js';
import { DEFAULT_GATE_PARAMS } from '../gate/types.js';
import type { QueryGate } from './apply-gate.js';
import { distinctChunkIndex } from './distinct-chunk-index.js';
import type { IndexOpener } from './load-snapshot.js';
import type { FindRetrievalDeps } from './retrieve-find.js';

export interface GateArtifacts {
  classifier: SentenceClassifier | null;
  /** Thresholds calibrated at build time; null: none qualified or not calibrated. */
  thresholds: { theta1: number; theta2: number } | null;
  chunkIndex: ChunkIndex | null;
}

/** Config side of the gate: DXGRAPH_GATE, DXGRAPH_GATE_THETA1 / _THETA2 (null = not set). */
export interface GateConfig {
  mode: GateMode;
  theta1: number | null;
  theta2: number | null;
}

export const NO_GATE_ARTIFACTS: GateArtifacts = { classifier: null, thresholds: null, chunkIndex: null };

export async function openGateArtifacts(input: { dataDir: string; manifest: BuildManifest; embedderId: string; openIndex: IndexOpener }): Promise<GateArtifacts> {
  const m = input.manifest;
  const dir = buildDir(input.dataDir, m.buildId);
  let chunkIndex: ChunkIndex | null = null;
  if (m.chunkIndex) {
    const path = join(dir, m.chunkIndex.file);
    let index;
    try {
      index = await input.openIndex(path, join(dir, m.chunkIndex.ids));
    } catch (e) {
      throw new ArtifactError(path, `chunk index ${path} is missing or corrupt: ${errorMessage(e)}`, { cause: e });
    }
    if (index.size !== m.chunkIndex.texts || (index.size > 0 && index.dim !== m.embeddingDim)) {
      throw new ArtifactError(path, `chunk index ${path} holds ${index.size} vectors of dimension ${index.dim}, manifest says ${m.chunkIndex.texts} of ${m.embeddingDim}`);
    }
    chunkIndex = distinctChunkIndex(index, await readGroups(join(dir, m.chunkIndex.groups), index, m.chunkIndex.size, m.chunkIndex.membersPerText ?? null));
  }
  if (!m.gate) return { classifier: null, thresholds: null, chunkIndex };
  const loaded = await loadClassifier(join(dir, m.gate.classifier), { expectEmbedder: input.embedderId });
  if (!loaded.ok) throw loaded.error;
  return { classifier: loaded.value, thresholds: m.gate.thresholds, chunkIndex };
}

/**
 * Per index row, the chunk ids holding its text, keyed by the row's vector id (its first chunk).
 * With a cap (membersPerText) a group lists at most that many and the groups hold at most `chunks`
 * ids in all; without one, exactly `chunks`.
 */
async function readGroups(path: string, index: VectorIndexLike, chunks: number, cap: number | null): Promise<Map<string, string[]>> {
  let rows: unknown;
  try {
    rows = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new ArtifactError(path, `chunk groups ${path} missing or corrupt: ${errorMessage(e)}`, { cause: e });
  }
  const ok = Array.isArray(rows) && rows.length === index.size && rows.every((g) => Array.isArray(g) && g.length > 0 && (cap === null || g.length <= cap) && g.every((id) => typeof id === 'string'));
  const groups = ok ? (rows as string[][]) : [];
  const listed = groups.reduce((n, g) => n + g.length, 0);
  if (!ok || (cap === null ? listed !== chunks : listed > chunks)) throw new ArtifactError(path, `chunk groups ${path} do not match the chunk index (${index.size} rows, ${chunks} chunks)`);
  return new Map(groups.map((g) => [g[0]!, g] as const));
}

/**
 * The gate and FIND dependencies of diagnose(). Thresholds: config (when set) over the build's
 * calibrated ones over FIND's defaults; a disordered result is a ConfigError at start-up.
 */
export function gateDeps(input: { artifacts: GateArtifacts; config: GateConfig; embeddings: Pick<Embeddings, 'embedDocuments'> }): { gate: QueryGate; find: FindRetrievalDeps | null } {
  const { artifacts: a, config: c } = input;
  const params = parseGateParams({
    theta1: c.theta1 ?? a.thresholds?.theta1 ?? DEFAULT_GATE_PARAMS.theta1,
    theta2: c.theta2 ?? a.thresholds?.theta2 ?? DEFAULT_GATE_PARAMS.theta2,
  });
  if (!params.ok) throw new ConfigError(`DXGRAPH_GATE_THETA1 / DXGRAPH_GATE_THETA2 (with the build's calibrated thresholds ${JSON.stringify(a.thresholds)}): ${params.error}`);
  // The gate library only calls embedDocuments (or the offline embedder's embedVector) on it.
  const embeddings = input.embeddings as Embeddings;
  return {
    gate: { classifier: a.classifier, embeddings, mode: c.mode, params: params.value },
    find: a.chunkIndex ? { chunkIndex: a.chunkIndex, embeddings, classifier: a.classifier } : null,
  };
}

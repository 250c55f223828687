import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildManifest } from '../../src/domain/artifacts.js';
import { ArtifactError } from '../../src/errors.js';
import { saveClassifier } from '../../src/gate/classifier-store.js';
import type { IndexOpener } from '../../src/query/load-snapshot.js';
import { openGateArtifacts } from '../../src/query/load-gate.js';
import { MemoryVectorIndex } from '../support/snapshot-fixture.js';
import { constantClassifier } from './query-gate-support.js';

function build(over: Partial<BuildManifest> = {}): { dataDir: string; dir: string; manifest: BuildManifest } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gate-load-'));
  const dir = join(dataDir, 'builds', 'b1');
  mkdirSync(dir, { recursive: true });
  const manifest: BuildManifest = {
    buildId: 'b1', source: 't', embedder: 'test-embedder', embeddingDim: 4,
    recordIndex: { kind: 'flat', size: 0, file: 'records.faiss', rows: 'records.jsonl' }, featureIndex: { size: 0, file: 'f.faiss', ids: 'f.json' },
    recordIdsFile: 'records.ids.json', createdAt: 'now', ...over,
  };
  return { dataDir, dir, manifest };
}
const opener: IndexOpener = async () => new MemoryVectorIndex(4, ['r1#0', 'r1#1'], [new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0])]);

describe('query: loading the gate artifacts of a build', () => {
  it('an older build (no gate, no chunk index) loads as nulls', async () => {
    const b = build();
    assert.deepEqual(await openGateArtifacts({ ...b, embedderId: 'test-embedder', openIndex: opener }), { classifier: null, thresholds: null, chunkIndex: null });
  });

  it('loads the classifier, the calibrated thresholds and the chunk index', async () => {
    const b = build({ chunkIndex: { size: 2, file: 'chunks.faiss', ids: 'chunks.ids.json' }, gate: { classifier: 'gate-classifier.json', metrics: 'gate-metrics.json', thresholds: { theta1: 0.3, theta2: 0.2 } } });
    await saveClassifier(join(b.dir, 'gate-classifier.json'), constantClassifier('A', 4));
    const a = await openGateArtifacts({ ...b, embedderId: 'test-embedder', openIndex: opener });
    assert.equal(a.classifier?.predict(new Float32Array(4), 'x').label, 'A');
    assert.deepEqual(a.thresholds, { theta1: 0.3, theta2: 0.2 });
    assert.deepEqual(a.chunkIndex?.searchMany([new Float32Array([0, 1, 0, 0])], 1)[0]!.map((h) => h.recordId), ['r1']);
  });

  it('a named but missing or foreign classifier, or a chunk index of the wrong size, is an ArtifactError', async () => {
    const missing = build({ gate: { classifier: 'gate-classifier.json', metrics: 'm.json', thresholds: null } });
    await assert.rejects(openGateArtifacts({ ...missing, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /gate-classifier\.json/.test(e.message));
    const foreign = build({ gate: { classifier: 'gate-classifier.json', metrics: 'm.json', thresholds: null } });
    await saveClassifier(join(foreign.dir, 'gate-classifier.json'), constantClassifier('A', 4));
    await assert.rejects(openGateArtifacts({ ...foreign, embedderId: 'other-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /other-embedder/.test(e.message));
    const wrong = build({ chunkIndex: { size: 3, file: 'chunks.faiss', ids: 'chunks.ids.json' } });
    await assert.rejects(openGateArtifacts({ ...wrong, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /chunks\.faiss/.test(e.message));
  });
});

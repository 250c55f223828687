import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
/** Two distinct chunk texts: the first held by r1#0 and r3#2, the second by r2#1. */
const opener: IndexOpener = async () => new MemoryVectorIndex(4, ['r1#0', 'r2#1'], [new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0])]);
const CHUNKS = { size: 3, texts: 2, file: 'chunks.faiss', ids: 'chunks.ids.json', groups: 'chunks.groups.json' };
const groups = (dir: string, rows: unknown) => writeFileSync(join(dir, 'chunks.groups.json'), JSON.stringify(rows));

describe('query: loading the gate artifacts of a build', () => {
  it('an older build (no gate, no chunk index) loads as nulls', async () => {
    const b = build();
    assert.deepEqual(await openGateArtifacts({ ...b, embedderId: 'test-embedder', openIndex: opener }), { classifier: null, thresholds: null, chunkIndex: null });
  });

  it('loads the classifier, the calibrated thresholds and the chunk index', async () => {
    const b = build({ chunkIndex: CHUNKS, gate: { classifier: 'gate-classifier.json', metrics: 'gate-metrics.json', thresholds: { theta1: 0.3, theta2: 0.2 } } });
    await saveClassifier(join(b.dir, 'gate-classifier.json'), constantClassifier('A', 4));
    groups(b.dir, [['r1#0', 'r3#2'], ['r2#1']]);
    const a = await openGateArtifacts({ ...b, embedderId: 'test-embedder', openIndex: opener });
    assert.equal(a.classifier?.predict(new Float32Array(4), 'x').label, 'A');
    assert.deepEqual(a.thresholds, { theta1: 0.3, theta2: 0.2 });
    const [hits] = a.chunkIndex!.searchMany([new Float32Array([1, 0, 0, 0])], 2);
    assert.deepEqual(hits!.map((h) => [h.chunkId, h.recordId, h.similarity]), [['r1#0', 'r1', 1], ['r3#2', 'r3', 1]], 'a distinct text expands to every chunk holding it');
    assert.deepEqual(a.chunkIndex!.searchMany([new Float32Array([0, 1, 0, 0])], 3)[0]!.map((h) => h.chunkId), ['r2#1', 'r1#0', 'r3#2']);
  });

  it('a named but missing or foreign classifier, or a chunk index of the wrong size, is an ArtifactError', async () => {
    const missing = build({ gate: { classifier: 'gate-classifier.json', metrics: 'm.json', thresholds: null } });
    await assert.rejects(openGateArtifacts({ ...missing, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /gate-classifier\.json/.test(e.message));
    const foreign = build({ gate: { classifier: 'gate-classifier.json', metrics: 'm.json', thresholds: null } });
    await saveClassifier(join(foreign.dir, 'gate-classifier.json'), constantClassifier('A', 4));
    await assert.rejects(openGateArtifacts({ ...foreign, embedderId: 'other-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /other-embedder/.test(e.message));
    const wrong = build({ chunkIndex: { ...CHUNKS, texts: 3 } });
    await assert.rejects(openGateArtifacts({ ...wrong, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /chunks\.faiss/.test(e.message));
    const badGroups = build({ chunkIndex: CHUNKS });
    groups(badGroups.dir, [['r1#0'], ['r2#1']]);
    await assert.rejects(openGateArtifacts({ ...badGroups, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /chunks\.groups\.json/.test(e.message));
  });

  it('groups capped at membersPerText (kg-build/distinct-chunks.ts) load; a group past the cap does not', async () => {
    // 5 chunks in all; the first text lists only its first 2 of 4.
    const capped = build({ chunkIndex: { ...CHUNKS, size: 5, membersPerText: 2 } });
    groups(capped.dir, [['r1#0', 'r3#2'], ['r2#1']]);
    const a = await openGateArtifacts({ ...capped, embedderId: 'test-embedder', openIndex: opener });
    assert.deepEqual(a.chunkIndex!.searchMany([new Float32Array([1, 0, 0, 0])], 2)[0]!.map((h) => h.chunkId), ['r1#0', 'r3#2']);
    const over = build({ chunkIndex: { ...CHUNKS, membersPerText: 1 } });
    groups(over.dir, [['r1#0', 'r3#2'], ['r2#1']]);
    await assert.rejects(openGateArtifacts({ ...over, embedderId: 'test-embedder', openIndex: opener }), (e: unknown) => e instanceof ArtifactError && /chunks\.groups\.json/.test(e.message));
  });
});

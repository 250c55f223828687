import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { LOAD_QUERIES } from '../../kg-build/load-neo4j.js';
import { currentPointer } from '../../src/domain/artifacts.js';
import type { IndexFactory } from '../../kg-build/build-indexes.js';
import { runBuild, type BuildParams } from '../../kg-build/pipeline.js';
import { MemorySource, syntheticRecords } from '../support/memory-source.js';

/**
 * The build runs the Neo4j load side by side with the index and gate stages
 * (kg-build/pipeline.ts); these stories check the overlap and that a failure on either
 * side fails the build without switching `current`.
 */
const hashed = new HashedEmbedder({ dim: 64 });
const params: BuildParams = {
  hierarchy: 'statistical', sizes: { subcategories: 'auto', categories: 'auto' }, cluster: {}, decompose: {}, keyDifferences: {}, index: {},
  batchSize: 50, recordsInGraph: false, triplesFile: null, split: null, gate: { maxExamples: 0 },
};
const records = syntheticRecords(
  [
    { name: 'Flu', findings: { E_1: 0.9, E_2: 0.7, E_3: 0.1 } },
    { name: 'Cold', findings: { E_1: 0.3, E_2: 0.1, E_4: 0.9 } },
    { name: 'Asthma', findings: { E_5: 0.9, E_6: 0.6 } },
  ],
  { perDisease: 30, seed: 5 },
);

function fakeGraph(events: string[], opts: { failOn?: string; failPlanOn?: string; delayMs?: number } = {}): GraphStore {
  const write = async (name: string) => {
    events.push(`neo4j:${name}`);
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
    if (name === opts.failOn) throw new Error(`Neo4j refused ${name}`);
    return [{ deleted: 0 }];
  };
  const explain = async (name: string) => {
    events.push(`neo4j:explain:${name}`);
    if (name === opts.failPlanOn) throw new Error(`Neo4j cannot plan ${name}`);
  };
  return { writeAll: async () => events.push('neo4j:schema'), write, read: async () => [{}], explain } as unknown as GraphStore;
}

function fakeFactory(events: string[], opts: { failOnAdd?: boolean } = {}): IndexFactory {
  return {
    create: ({ kind }) => {
      let size = 0;
      return {
        get size() {
          return size;
        },
        add: (ids) => {
          events.push(`index:add:${kind}`);
          if (opts.failOnAdd) throw new Error('index add failed');
          size += ids.length;
        },
        save: async () => {
          await new Promise((r) => setTimeout(r, 20)); // long enough for the load to make progress
          events.push(`index:save:${kind}`);
        },
      };
    },
  };
}

async function build(events: string[], graph: GraphStore, factory: IndexFactory, signal?: AbortSignal) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kg-overlap-'));
  const run = runBuild({ source: new MemorySource(records), dataDir, params, ...(signal ? { signal } : {}) }, { graph, embedder: { id: hashed.id, embeddings: hashed }, indexFactory: factory, llm: null });
  return { dataDir, run };
}

describe('kg-build pipeline: Neo4j load side by side with the index and gate stages', () => {
  it('starts the load before the indexes are saved, and switches current after both', async () => {
    const events: string[] = [];
    const { dataDir, run } = await build(events, fakeGraph(events), fakeFactory(events));
    const out = await run;
    const firstLoad = events.indexOf('neo4j:build/start-build');
    const lastSave = events.lastIndexOf('index:save:flat');
    assert.ok(firstLoad >= 0 && lastSave >= 0, events.join(' '));
    assert.ok(firstLoad < lastSave, `the load started before the indexes were saved: ${events.join(' ')}`);
    assert.ok(events.includes('neo4j:build/complete-build'));
    assert.ok(existsSync(currentPointer(dataDir)));
    assert.equal(out.manifest.embeddingDim, 64);
    assert.ok((out.timings.neo4j ?? -1) >= 0 && (out.timings.indexes ?? -1) >= 0);
  });

  it('a failed load fails the build with its error once the index stage has stopped; current is not switched', async () => {
    const events: string[] = [];
    const { dataDir, run } = await build(events, fakeGraph(events, { failOn: 'build/merge-diseases' }), fakeFactory(events));
    await assert.rejects(run, /Neo4j refused build\/merge-diseases/);
    assert.ok(events.includes('index:save:flat'), 'the index stage ran to its end');
    assert.ok(!existsSync(currentPointer(dataDir)));
  });

  it('plans every load query before the first batch, and the scan does not wait for it', async () => {
    const events: string[] = [];
    const { run } = await build(events, fakeGraph(events), fakeFactory(events));
    const out = await run;
    const explained = events.filter((e) => e.startsWith('neo4j:explain:')).map((e) => e.slice('neo4j:explain:'.length));
    assert.deepEqual(explained, LOAD_QUERIES);
    assert.equal(events.filter((e) => e === 'neo4j:schema').length, 1, 'the schema is written once, before the plans');
    assert.ok(events.indexOf('neo4j:schema') < events.indexOf(`neo4j:explain:${LOAD_QUERIES[0]}`));
    assert.ok(events.lastIndexOf('neo4j:explain:build/counts') < events.indexOf('neo4j:build/start-build'), events.join(' '));
    assert.ok((out.timings.neo4jPrepare ?? -1) >= 0);
  });

  it('a server that cannot plan the load fails the build before any batch or index is written; current is not switched', async () => {
    const events: string[] = [];
    const { dataDir, run } = await build(events, fakeGraph(events, { failPlanOn: 'build/merge-records' }), fakeFactory(events));
    await assert.rejects(run, /Neo4j cannot plan build\/merge-records/);
    assert.ok(!events.some((e) => e.startsWith('neo4j:build/') || e.startsWith('index:')), events.join(' '));
    assert.ok(!existsSync(currentPointer(dataDir)));
  });

  it('a failed index stage aborts the load and fails the build with the index error', async () => {
    const events: string[] = [];
    const { dataDir, run } = await build(events, fakeGraph(events, { delayMs: 15 }), fakeFactory(events, { failOnAdd: true }));
    await assert.rejects(run, /index add failed/);
    assert.ok(!events.includes('neo4j:build/complete-build'), 'the load was aborted before completing the build');
    assert.ok(!existsSync(currentPointer(dataDir)));
  });
});

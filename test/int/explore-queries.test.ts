import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { cypherPath } from '../../src/adapters/neo4j/cypher.js';
import { loadConfig } from '../../src/config.js';
import { hashUnit } from '../../src/sources/split.js';
import { buildDdxplusKg } from '../support/ddxplus-build.js';
import { testGraphStore } from '../support/neo4j.js';

/**
 * Every analyst query in cypher/explore/ runs against a real build (with :Record nodes)
 * and returns rows. Parameters come from the `// :param name => …` hints in each file, so
 * a query that needs a parameter its header does not declare fails here.
 */
const DIR = join(cypherPath('x'), '..', 'explore');
const files = readdirSync(DIR).filter((f) => f.endsWith('.cypher')).sort();

function declaredParams(file: string): string[] {
  return [...readFileSync(join(DIR, file), 'utf8').matchAll(/^\/\/\s*:param\s+(\w+)\s*=>/gm)].map((m) => m[1]!);
}

describe('cypher/explore queries (real Neo4j, real build with records)', function () {
  this.timeout(600_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'dx-explore-'));
  let store: GraphStore;
  let values: Record<string, unknown>;

  before(async () => {
    const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
    // A fifth of the sample (a stable hash of the record id), with :Record nodes.
    await buildDdxplusKg(config, (r) => hashUnit(7, r.id) < 0.2, { recordsInGraph: true, gate: false });
    store = await testGraphStore();
    // A category with several subcategories, and a disease that has key differences and records.
    const [cat] = await store.runText('MATCH (c:Category)<-[:IS_A]-(s:Subcategory) RETURN c.id AS id, count(s) AS n ORDER BY n DESC, id LIMIT 1', {}, 'READ');
    const [dis] = await store.runText(
      'MATCH (d:Disease)-[:HAS_KEY_DIFFERENCE]->() WITH d, count(*) AS k MATCH (r:Record)-[:DIAGNOSED_AS]->(d) RETURN d.id AS id, k, count(r) AS n ORDER BY n DESC, id LIMIT 1',
      {}, 'READ');
    assert.ok(cat && dis, 'the build has categories and a disease with key differences and records');
    values = { categoryId: cat.id, diseaseId: dis.id, featuresPerDisease: 3, limit: 5, vocabulary: 'any', learnt: 'any' };
  });

  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has the queries an analyst runs first, each commented', () => {
    for (const want of ['hierarchy-overview', 'four-tiers', 'key-differences', 'most-discriminative', 'records-of']) {
      assert.ok(files.some((f) => f.includes(want)), `cypher/explore has a ${want} query`);
    }
    for (const f of files) assert.match(readFileSync(join(DIR, f), 'utf8'), /^\/\/ \S/, `${f} starts with a comment`);
  });

  for (const file of files) {
    it(`${file} runs and returns rows`, async () => {
      const name = `explore/${file.replace(/\.cypher$/, '')}`;
      const params = Object.fromEntries(declaredParams(file).map((p) => {
        assert.ok(p in values, `${file}: no test value for :param ${p}`);
        return [p, values[p]];
      }));
      const rows = await store.read(name, params);
      assert.ok(rows.length > 0, `${file} returned no rows`);
      if ('limit' in params) assert.ok(rows.length <= 5, `${file} honours $limit`);
    });
  }

  it('the four tiers of a category reach from the category down to features', async () => {
    const rows = await store.read('explore/02-four-tiers-of-a-category', { categoryId: values.categoryId, featuresPerDisease: 3 });
    const labels = new Set<string>();
    for (const r of rows) {
      for (const n of (r.tiers as { segments: { start: { labels: string[] }; end: { labels: string[] } }[] }).segments) n.start.labels.concat(n.end.labels).forEach((l) => labels.add(l));
      (r.f as { labels: string[] }).labels.forEach((l) => labels.add(l));
    }
    for (const l of ['Category', 'Subcategory', 'Disease', 'Feature']) assert.ok(labels.has(l), `tier ${l} present`);
    const perDisease = new Map<string, number>();
    for (const r of rows) {
      const d = (r.tiers as { start: { properties: { id: string } } }).start.properties.id;
      perDisease.set(d, (perDisease.get(d) ?? 0) + 1);
    }
    assert.ok([...perDisease.values()].every((n) => n <= 3), 'at most featuresPerDisease features per disease');
  });

  it('the most discriminative features come first (sigma descending, lowest degree)', async () => {
    const rows = await store.read('explore/04-most-discriminative-features', { limit: 20 });
    const sigmas = rows.map((r) => Number(r.sigma));
    assert.deepEqual(sigmas, [...sigmas].sort((a, b) => b - a));
    const [minDeg] = await store.runText('MATCH (f:Feature)<-[:HAS_MANIFESTATION]-(d:Disease) WITH f, count(d) AS deg RETURN min(deg) AS m', {}, 'READ');
    assert.equal(Number(rows[0]!.degree), Number(minDeg!.m));
  });
});

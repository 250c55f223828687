import type { GraphStore } from '../adapters/neo4j/graph-store.js';
import { differencesKg } from '../query/differences-kg.js';
import type { KgReader } from './ports.js';
import type { Differences, DiseaseItem, KgSummary } from './schemas.js';

/**
 * KG exploration straight from Neo4j (not the start-up snapshot), so these endpoints
 * show what the graph holds now and answer 503 when Neo4j is down. The differences
 * triples come from the query pipeline's own stage (MedRAG eq. 14), so the endpoint and
 * `/v1/diagnose` show the same K.
 */
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

export class Neo4jKgReader implements KgReader {
  constructor(
    private readonly graph: Pick<GraphStore, 'read'>,
    private readonly opts: { triplesPerDisease: number } = { triplesPerDisease: 50 },
  ) {}

  async summary(): Promise<KgSummary> {
    const [[c], [b]] = await Promise.all([this.graph.read('build/counts'), this.graph.read('query/kg-build-info')]);
    const counts = {
      categories: num(c?.categories),
      subcategories: num(c?.subcategories),
      diseases: num(c?.diseases),
      features: num(c?.features),
      ehrFeatures: num(c?.ehrFeatures),
      augmentedFeatures: num(c?.augmentedFeatures),
      keyDifferences: num(c?.keyDifferences),
      records: num(c?.records),
    };
    const build = b
      ? {
          id: String(b.id),
          source: String(b.source ?? ''),
          embedder: String(b.embedder ?? ''),
          embeddingDim: num(b.embeddingDim),
          status: String(b.status ?? ''),
          startedAt: String(b.startedAt ?? ''),
          finishedAt: str(b.finishedAt),
        }
      : null;
    return { counts, build };
  }

  async diseases(): Promise<DiseaseItem[]> {
    const rows = await this.graph.read('query/kg-diseases');
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      icd10: str(r.icd10),
      recordCount: num(r.recordCount),
      subcategoryId: str(r.subcategoryId),
      subcategory: str(r.subcategory),
      categoryId: str(r.categoryId),
      category: str(r.category),
    }));
  }

  async differences(subcategoryId: string): Promise<Differences | null> {
    const [s] = await this.graph.read('query/kg-subcategory', { subcategoryId });
    if (!s) return null;
    const { triples } = await differencesKg(this.graph, { subcategoryId, perDisease: this.opts.triplesPerDisease });
    return {
      subcategory: { id: String(s.id), name: String(s.name), categoryId: str(s.categoryId), category: str(s.category) },
      diseases: ((s.diseases as { id: unknown; name: unknown }[]) ?? []).map((d) => ({ id: String(d.id), name: String(d.name) })),
      triples,
    };
  }
}

import type { VectorHit, VectorIndexLike } from '../../src/adapters/faiss/types.js';
import type { DiagnosticKg, FeatureNode, ManifestationEdge } from '../../src/domain/kg.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { HashedEmbedder } from '../../src/adapters/embeddings/hashed-embedder.js';
import type { TextEmbedder } from '../../src/query/embed.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import type { RecordRow } from '../../src/query/retrieve-records.js';

/**
 * Test fixtures for the query side without Neo4j or FAISS: a KgSnapshot built in memory
 * from NormalizedRecords (one disease per diagnosis, subcategory given by a function),
 * and a brute-force in-memory VectorIndexLike. Unit tests only; int tests use real builds.
 */
export class MemoryVectorIndex implements VectorIndexLike {
  readonly kind = 'flat' as const;
  constructor(readonly dim: number, private readonly ids: string[], private readonly vectors: Float32Array[]) {}
  get size(): number {
    return this.ids.length;
  }
  search(q: Float32Array, k: number): VectorHit[] {
    const hits = this.vectors.map((v, i) => {
      let s = 0;
      for (let j = 0; j < v.length; j++) s += v[j]! * q[j]!;
      return { id: this.ids[i]!, score: s };
    });
    return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, k);
  }
  searchMany(qs: Float32Array[], k: number): VectorHit[][] {
    return qs.map((q) => this.search(q, k));
  }
}

export function hashedEmbedder(dim = 512): TextEmbedder & { embedder: HashedEmbedder } {
  const e = new HashedEmbedder({ dim });
  return { id: e.id, embeddings: e, embedder: e };
}

export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function kgFromRecords(records: NormalizedRecord[], subcategoryOf: (diagnosis: string) => string = () => 'all'): Omit<DiagnosticKg, 'keyDifferences'> {
  const byDisease = new Map<string, NormalizedRecord[]>();
  for (const r of records) byDisease.set(r.diagnosis, [...(byDisease.get(r.diagnosis) ?? []), r]);
  const features = new Map<string, FeatureNode>();
  const manifestations: ManifestationEdge[] = [];
  const subs = new Set<string>();
  const diseases = [...byDisease.entries()].map(([name, rs]) => {
    const id = `dis:${slug(name)}`;
    const counts = new Map<string, number>();
    for (const r of rs) {
      const seen = new Set<string>();
      for (const f of r.findings) {
        if (f.polarity === 'absent') continue;
        const fid = f.code ? `feat:${f.code}=${f.valueCode ?? ''}` : `feat:${slug(f.text)}`;
        if (!features.has(fid)) features.set(fid, { id: fid, text: f.text, kind: 'ehr', code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText, antecedent: f.antecedent });
        seen.add(fid);
      }
      for (const fid of seen) counts.set(fid, (counts.get(fid) ?? 0) + 1);
    }
    for (const [featureId, count] of counts) manifestations.push({ diseaseId: id, featureId, prevalence: count / rs.length, count, source: 'ehr' });
    const sub = subcategoryOf(name);
    subs.add(sub);
    return { id, name, subcategoryId: `sub:${slug(sub)}`, icd10: rs[0]!.icd10, recordCount: rs.length, aliases: [name] };
  });
  return {
    categories: [{ id: 'cat:all', name: 'All' }],
    subcategories: [...subs].map((s) => ({ id: `sub:${slug(s)}`, name: s, categoryId: 'cat:all' })),
    diseases,
    features: [...features.values()],
    manifestations,
  };
}

export interface Fixture {
  snapshot: KgSnapshot;
  embedder: TextEmbedder;
  featureIndex: MemoryVectorIndex;
  recordIndex: MemoryVectorIndex;
  records: Map<string, RecordRow>;
}

export async function fixtureFromRecords(records: NormalizedRecord[], subcategoryOf?: (diagnosis: string) => string): Promise<Fixture> {
  const snapshot = buildSnapshot(kgFromRecords(records, subcategoryOf), 'fixture');
  const emb = hashedEmbedder();
  const fv = snapshot.features.map((f) => emb.embedder.embedVector(f.text));
  const rv = records.map((r) => emb.embedder.embedVector(r.text));
  const rows = new Map(records.map((r) => [r.id, { id: r.id, diagnosis: r.diagnosis, diseaseId: `dis:${slug(r.diagnosis)}`, text: r.text }] as const));
  return {
    snapshot,
    embedder: emb,
    featureIndex: new MemoryVectorIndex(emb.embedder.dim, snapshot.features.map((f) => f.id), fv),
    recordIndex: new MemoryVectorIndex(emb.embedder.dim, records.map((r) => r.id), rv),
    records: rows,
  };
}

/** A coded-free finding for hand-written fixtures. */
export const finding = (text: string, polarity: 'present' | 'absent' = 'present') => ({ text, polarity, code: null, valueCode: null, question: null, valueText: null, antecedent: null });

/** A hand-written record for small unit-test KGs (text = findings joined by lines). */
export function record(id: string, diagnosis: string, findings: string[]): NormalizedRecord {
  return { id, diagnosis, icd10: null, age: null, sex: null, findings: findings.map((t) => finding(t)), initialFindingCode: null, text: findings.join('\n'), location: id };
}

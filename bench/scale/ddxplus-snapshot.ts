/**
 * The shipped DDXPlus sample as an in-memory KgSnapshot (no Neo4j): diseases, coded features and
 * counted edges estimated from the records (src/followups/record-kg.ts, the build's ids), the
 * source's declared evidence per disease (so the reasoner's pδ path is exercised), one
 * subcategory per `perSubcategory` diseases. Held-out cases are the last `cases` records.
 * For the bench's side-by-side figures and the reasoner's equivalence test.
 */
import type { DiseaseNode, FeatureNode } from '../../src/domain/kg.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { kgFromRecords, KG_BUILD_IDS } from '../../src/followups/record-kg.js';
import { buildSnapshot, type KgSnapshot } from '../../src/query/kg-snapshot.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';
import { knownEvidenceFields } from '../../kg-build/known-evidence.js';
import type { VocabCase } from './vocab-kg.js';

export const DDXPLUS_SAMPLE_DIR = 'datasets/ddxplus';

export async function ddxplusSampleSnapshot(opts: { cases?: number; perSubcategory?: number; dir?: string } = {}): Promise<{ snapshot: KgSnapshot; cases: VocabCase[] }> {
  const source = new DdxplusSource(opts.dir ?? DDXPLUS_SAMPLE_DIR, { strict: true });
  const records: NormalizedRecord[] = [];
  for await (const r of source.records()) records.push(r);
  const declared = await source.declaredEvidence();
  const knowledge = await source.diseaseKnowledge();
  const held = records.splice(records.length - (opts.cases ?? 100));
  const { kg } = kgFromRecords(records, KG_BUILD_IDS);
  const per = opts.perSubcategory ?? 5;
  const S = Math.ceil(kg.diseases.length / per);
  const diseases: DiseaseNode[] = kg.diseases.map((d, i) => ({ ...d, subcategoryId: `sub:s${Math.floor(i / per)}`, icd10: null, aliases: [d.name], declaredEvidence: [...(declared(d.name) ?? [])], ...knownEvidenceFields(knowledge(d.name)) }));
  const features: FeatureNode[] = kg.features.map((f) => ({ ...f, kind: 'ehr' }));
  const snapshot = buildSnapshot({
    categories: [{ id: 'cat:all', name: 'All' }],
    subcategories: Array.from({ length: S }, (_, s) => ({ id: `sub:s${s}`, name: `group ${s}`, categoryId: 'cat:all' })),
    diseases,
    features,
    manifestations: kg.manifestations.map((m) => ({ ...m, source: 'ehr' as const })),
  });
  const cases = held.flatMap((r) => {
    const d = snapshot.diseaseIndex.get(KG_BUILD_IDS.diseaseId(r.diagnosis));
    if (d === undefined) return [];
    const present = [...new Set(r.findings.map((f) => snapshot.featureIndex.get(KG_BUILD_IDS.featureId(f))).filter((f): f is number => f !== undefined))];
    return [{ disease: d, present }];
  });
  return { snapshot, cases };
}

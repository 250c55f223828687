import type { NormalizedRecord } from '../domain/record.js';
import type { RecordSource } from './types.js';

/**
 * DXGRAPH_DROP_DEMOGRAPHICS at build time: a source decorator that removes age and sex
 * from every record before any build stage sees it, so neither reaches the spool, the
 * record index rows (records.jsonl), the embeddings nor the graph. Both renderers
 * (DDXPlus, tabular) write demographics as their own `age: …` / `sex: …` lines; those
 * lines are kept with the value `unknown` so the text layout stays the same.
 */
const DEMOGRAPHIC_LINE = /^(age|sex):[^\n]*$/gm;

export function withoutDemographicsRecord(r: NormalizedRecord): NormalizedRecord {
  return { ...r, age: null, sex: null, text: r.text.replace(DEMOGRAPHIC_LINE, (_m, field: string) => `${field}: unknown`) };
}

export function withoutDemographics(source: RecordSource): RecordSource {
  return {
    // Part of the build id: a build without demographics is a different build.
    description: `${source.description} (demographics dropped)`,
    async *records() {
      for await (const r of source.records()) yield withoutDemographicsRecord(r);
    },
    summary: () => source.summary(),
    // The condition dictionary is knowledge about diagnoses, not about patients: kept.
    ...(source.declaredEvidence ? { declaredEvidence: () => source.declaredEvidence!() } : {}),
    ...(source.diseaseKnowledge ? { diseaseKnowledge: () => source.diseaseKnowledge!() } : {}),
    ...(source.codedConcepts ? { codedConcepts: () => source.codedConcepts!() } : {}),
    close: () => source.close(),
  };
}

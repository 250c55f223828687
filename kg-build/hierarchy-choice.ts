import type { ClusteredDisease } from './cluster-diseases.js';
import { icd10Coverage } from './hierarchy-icd10.js';
import type { HierarchyMode } from './hierarchy-types.js';

/**
 * Which hierarchy a build gets when --hierarchy is 'auto' (issue 19): the most readable one
 * the source allows. ICD-10 chapters and blocks when (nearly) every disease carries an
 * ICD-10 code: an external, clinician-known grouping that needs nothing else; LLM topics when
 * a chat model is configured; otherwise statistical groups named by short clinical concepts.
 * An explicit mode always wins. The reason is printed by `dxgraph build` and recorded on the
 * KgBuild node, so nobody has to guess why a graph looks the way it does.
 */
export type HierarchyRequest = 'auto' | HierarchyMode;

export interface HierarchyChoice {
  mode: HierarchyMode;
  reason: string;
}

/**
 * Share of diseases that must carry a usable ICD-10 code for auto to pick ICD-10. The rest
 * would land in "ICD-10 unclassified", so it must stay small: one disease in ten at most.
 */
export const ICD10_AUTO_COVERAGE = 0.9;

export function chooseHierarchy(input: { requested: HierarchyRequest; diseases: readonly Pick<ClusteredDisease, 'icd10'>[]; llmConfigured: boolean }): HierarchyChoice {
  const { coded, total } = icd10Coverage(input.diseases);
  const codes = `${coded}/${total} diseases carry an ICD-10 code`;
  if (input.requested !== 'auto') return { mode: input.requested, reason: `requested with --hierarchy ${input.requested} (${codes})` };
  if (total > 0 && coded / total >= ICD10_AUTO_COVERAGE) return { mode: 'icd10', reason: `auto: ${codes} (>= ${ICD10_AUTO_COVERAGE * 100}%): ICD-10 chapters and blocks` };
  if (input.llmConfigured) return { mode: 'llm', reason: `auto: only ${codes} (< ${ICD10_AUTO_COVERAGE * 100}%) and a chat model is configured: LLM topics` };
  return { mode: 'statistical', reason: `auto: only ${codes} (< ${ICD10_AUTO_COVERAGE * 100}%) and no chat model is configured: statistical groups named by their distinguishing findings` };
}

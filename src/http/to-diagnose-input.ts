import { DEFAULT_OPTIONS, type DiagnoseInput } from '../query/contracts.js';
import type { Config } from '../config.js';
import type { DiagnoseRequest } from './schemas.js';
import { toInputFinding } from './finding-input.js';

/** Validated request body → the query contract, filling defaults (and dropping demographics when configured). */
export function toDiagnoseInput(body: DiagnoseRequest, privacy: Config['privacy']): DiagnoseInput {
  const o = body.options ?? {};
  const text = body.text?.trim();
  return {
    text: text ? text : null,
    findings: (body.findings ?? []).map((f, i) => toInputFinding(f, `findings.${i}`)),
    age: privacy.dropDemographics ? null : (body.age ?? null),
    sex: privacy.dropDemographics ? null : (body.sex ?? null),
    options: {
      topK: o.topK ?? DEFAULT_OPTIONS.topK,
      topM: o.topM ?? DEFAULT_OPTIONS.topM,
      matchThreshold: o.matchThreshold ?? DEFAULT_OPTIONS.matchThreshold,
      candidateSubcategories: o.candidateSubcategories ?? DEFAULT_OPTIONS.candidateSubcategories,
      followUps: o.followUps ?? DEFAULT_OPTIONS.followUps,
      reasoner: o.reasoner ?? DEFAULT_OPTIONS.reasoner,
      followUpRanker: o.followUpRanker ?? DEFAULT_OPTIONS.followUpRanker,
      ...(o.gate ? { gate: o.gate } : {}),
      ...(o.gateThresholds ? { gateThresholds: o.gateThresholds } : {}),
      ...(o.retrieval ? { retrieval: o.retrieval } : {}),
      ...(o.trace ? { trace: o.trace } : {}),
    },
  };
}

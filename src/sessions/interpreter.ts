/**
 * Turns a session's first description into evidence on KG features. Coded findings
 * (DDXPlus E_xx / V_xx) map straight onto features by provenance; free text goes
 * through the query pipeline (decompose → match), whose best match per finding is taken.
 */
import type { FollowupModel } from '../followups/model.js';
import type { FeatureEvidence } from '../followups/posterior.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseResult, type InputFinding } from '../query/contracts.js';

export interface FirstDescription {
  text: string | null;
  findings: InputFinding[];
  age: number | null;
  sex: 'M' | 'F' | null;
}

export interface Interpretation {
  evidence: FeatureEvidence[];
  /** Diseases to aim the questions at (e.g. the pipeline's chosen subcategory), or null. */
  candidateDiseases: string[] | null;
}

export interface DescriptionInterpreter {
  interpret(d: FirstDescription): Promise<Interpretation>;
}

const codeKey = (code: string, valueCode: string | null): string => `${code}|${valueCode ?? ''}`;

/** Coded findings only: exact (code, valueCode) provenance lookup; uncoded findings are skipped. */
export function codedEvidence(model: FollowupModel, findings: readonly InputFinding[]): { evidence: FeatureEvidence[]; rest: InputFinding[] } {
  const byCode = new Map(model.features.filter((f) => f.code !== null).map((f) => [codeKey(f.code!, f.valueCode), f.id]));
  const evidence: FeatureEvidence[] = [];
  const rest: InputFinding[] = [];
  for (const f of findings) {
    const id = f.code !== null ? byCode.get(codeKey(f.code, f.valueCode)) : undefined;
    if (id !== undefined) evidence.push({ featureId: id, present: f.polarity === 'present' });
    else rest.push(f);
  }
  return { evidence, rest };
}

export function codedInterpreter(model: FollowupModel): DescriptionInterpreter {
  return { interpret: async (d) => ({ evidence: codedEvidence(model, d.findings).evidence, candidateDiseases: null }) };
}

/** Coded findings directly; text and uncoded findings through `diagnose` (its best match per finding). */
export function pipelineInterpreter(model: FollowupModel, query: { diagnose(input: DiagnoseInput): Promise<DiagnoseResult> }): DescriptionInterpreter {
  return {
    async interpret(d) {
      const { evidence, rest } = codedEvidence(model, d.findings);
      if (d.text === null && rest.length === 0) return { evidence, candidateDiseases: null };
      const result = await query.diagnose({ text: d.text, findings: rest, age: d.age, sex: d.sex, options: { ...DEFAULT_OPTIONS, reasoner: 'evidence', followUps: 0 } });
      const best = new Map<number, DiagnoseResult['trace']['matches'][number]>();
      for (const m of result.trace.matches) if ((best.get(m.findingIndex)?.similarity ?? -Infinity) < m.similarity) best.set(m.findingIndex, m);
      const known = new Set(evidence.map((e) => e.featureId));
      for (const m of best.values()) {
        if (known.has(m.featureId)) continue;
        known.add(m.featureId);
        evidence.push({ featureId: m.featureId, present: m.polarity === 'present' });
      }
      return { evidence, candidateDiseases: null };
    },
  };
}

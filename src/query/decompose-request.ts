import type { LlmBudget } from '../adapters/llm/budget.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import type { DiagnoseInput, InputFinding } from './contracts.js';
import { decompose, type NoteSections } from '../clinical-text/decompose.js';
import { noteStructure, shippedSectionRules } from '../clinical-text/sections/index.js';
import type { LlmDecomposer } from './decompose-llm.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * The request's decomposition stage (MedRAG eq. 8): with an LLM decomposer configured, the text
 * goes to the LLM constrained to the KG's concepts; without one, or when it fails (timeout,
 * invalid twice, budget spent), the rule path (decompose.ts: NegEx/ConText text analysis)
 * answers, and the trace says which did and why. `options.decomposition: 'rules'` skips the LLM
 * (the evidence answer sent before an LLM report). Age and sex written in the text fill the
 * request's when it gave none.
 */
export interface DecompositionTrace {
  method: 'rules' | 'llm';
  /** Why the LLM path did not answer (a category, never the model's words), else null. */
  fallback: string | null;
  /** Age and sex read from the text (null when the request carried them or the text had none). */
  age: number | null;
  sex: 'M' | 'F' | null;
  /** The text's sections when it was a note with headings (its conclusion left out), else absent. */
  note?: NoteSections;
}

export interface DecomposedRequest {
  findings: InputFinding[];
  /** The request with age/sex completed from the text. */
  input: DiagnoseInput;
  trace: DecompositionTrace;
}

export interface DecomposeRequestDeps {
  snapshot: KgSnapshot;
  lexicon: ConceptLexicon | null;
  decomposer: LlmDecomposer | null;
}

export async function decomposeRequest(
  deps: DecomposeRequestDeps,
  input: DiagnoseInput,
  ctx: { budget: LlmBudget | null; signal: AbortSignal | null },
): Promise<DecomposedRequest> {
  let fallback: string | null = null;
  if (deps.decomposer && input.options.decomposition !== 'rules' && input.text?.trim()) {
    // The LLM reads the note without its conclusion too (blanked, as the rule path reads it).
    const structure = noteStructure(input.text, shippedSectionRules());
    const llm = await deps.decomposer.decompose({ snapshot: deps.snapshot, lexicon: deps.lexicon, budget: ctx.budget, signal: ctx.signal }, structure.text);
    if (llm.ok) {
      const structured = decompose({ text: null, findings: input.findings }).findings;
      const note = structure.structured ? { kinds: structure.sections.flatMap((s) => (s.kind === null ? [] : [s.kind])), leftOut: structure.leftOut } : null;
      return complete(input, [...structured, ...llm.value.findings], llm.value.demographics, 'llm', null, note);
    }
    fallback = `llm ${llm.error.kind}`;
  }
  const rules = decompose({ text: input.text, findings: input.findings });
  return complete(input, rules.findings, rules.demographics, 'rules', fallback, rules.note);
}

function complete(
  input: DiagnoseInput,
  findings: InputFinding[],
  read: { age: number | null; sex: 'M' | 'F' | null },
  method: DecompositionTrace['method'],
  fallback: string | null,
  note: NoteSections | null,
): DecomposedRequest {
  const age = input.age === null ? read.age : null;
  const sex = input.sex === null ? read.sex : null;
  return {
    findings,
    input: { ...input, age: input.age ?? read.age, sex: input.sex ?? read.sex },
    trace: { method, fallback, age, sex, ...(note ? { note } : {}) },
  };
}

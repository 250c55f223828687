/**
 * The information-density gate on the query path (FIND §3.2.1; docs/gate.md): which mode
 * runs (request `options.gate` over config), with which thresholds (request
 * `options.gateThresholds` over config over the build's calibrated ones over FIND's), and
 * the gate's verdict for this input. The verdict is exactly `trace.gate`; what it changes in
 * the pipeline is decided in diagnose.ts (direct → direct-answer.ts).
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { InputError } from '../errors.js';
import { createGate } from '../gate/gate.js';
import { decideGate } from '../gate/gate-decision.js';
import { parseGateParams, resolveGateMode, type GateMode } from '../gate/gate-params.js';
import type { SentenceClassifier } from '../gate/sentence-classifier.js';
import type { GateParams, GateTrace } from '../gate/types.js';
import type { DiagnoseInput, InputFinding } from './contracts.js';
import { flooredDensity } from './gate-short-input.js';

export interface QueryGate {
  /** The build's classifier; null when the build has none ('auto' then runs as 'off'). */
  classifier: SentenceClassifier | null;
  embeddings: Embeddings;
  /** Config default (DXGRAPH_GATE). */
  mode: GateMode;
  /** Thresholds and weights before a request's overrides. */
  params: GateParams;
}

/** Follow-ups a warned answer carries at least: the questions that would help most. */
export const WARN_MIN_FOLLOWUPS = 3;

/**
 * The gate's verdict, or null when the gate does not run for this request (then no 'gate'
 * timing either). Bad options are InputErrors (400).
 */
export async function assessGate(
  gate: QueryGate | null,
  req: { input: DiagnoseInput; findings: readonly InputFinding[] },
  timed: <T>(stage: string, fn: () => Promise<T>) => Promise<T>,
): Promise<GateTrace | null> {
  const { input, findings } = req;
  const o = input.options;
  const run = resolveGateMode({ request: o.gate ?? null, config: gate?.mode ?? 'auto', classifierAvailable: gate?.classifier != null });
  if (!run.ok) throw new InputError(`options.gate: ${run.error}`, { field: 'options.gate' });
  if (!run.value || !gate?.classifier) return null;
  const params = parseGateParams({ ...gate.params, ...(o.gateThresholds ?? {}) });
  if (!params.ok) throw new InputError(`options.gateThresholds: ${params.error}`, { field: 'options.gateThresholds' });
  const g = createGate({ classifier: gate.classifier, embedder: gate.embeddings, params: params.value });
  const text = input.text?.trim();
  return timed('gate', async () => {
    const trace = text ? await g.assess(text) : await g.assessSentences(findings.map(findingSentence));
    // A short input's density says nothing about completeness (gate-short-input.ts).
    const score = flooredDensity(trace.score, trace.sentences.length);
    return score === trace.score ? trace : { ...trace, score, ...decideGate(score, params.value) };
  });
}

/** Structured findings are assessed one per sentence, absent ones negated. */
export function findingSentence(f: InputFinding): string {
  return f.polarity === 'absent' ? `no ${f.text}` : f.text;
}

/** Follow-ups asked for, raised for a warned answer (a caller asking for none, e.g. a session, still gets none). */
export function followUpLimit(gate: GateTrace | null, asked: number): number {
  return gate?.decision === 'retrieve-warn' && asked > 0 ? Math.max(asked, WARN_MIN_FOLLOWUPS) : asked;
}

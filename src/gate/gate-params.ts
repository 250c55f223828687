/**
 * Gate parameters and mode, validated once where they enter (config, request body).
 * Mode semantics (request overrides config; a request's 'auto' defers to config):
 *   'off'  → the gate does not run: trace.gate is null, the full retrieval path always runs.
 *   'on'   → the gate runs and its decision is binding; an error if the build has no classifier.
 *   'auto' → as 'on' when the build has a gate classifier, else as 'off'.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../result.js';
import { checkThresholds } from './gate-decision.js';
import { DEFAULT_GATE_PARAMS, type GateParams } from './types.js';

export const GATE_MODES = ['auto', 'on', 'off'] as const;
export type GateMode = (typeof GATE_MODES)[number];

const unit = z.number().min(0).max(1);
export const GateParamsSchema = z
  .object({ alpha: z.number().positive(), beta: z.number().min(0), gamma: z.number().min(0), theta1: unit, theta2: unit })
  .partial()
  .strict();

/** Defaults overlaid with the given partial parameters; rejects unknown keys and disordered thresholds. */
export function parseGateParams(input: unknown): Result<GateParams, string> {
  const parsed = GateParamsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err(`gate.${issue.path.join('.') || 'params'}: ${issue.message}`);
  }
  const params = { ...DEFAULT_GATE_PARAMS, ...parsed.data };
  const bad = checkThresholds(params);
  return bad === null ? ok(params) : err(bad);
}

/** Whether the gate runs for one request. */
export function resolveGateMode(input: { request: GateMode | null; config: GateMode; classifierAvailable: boolean }): Result<boolean, string> {
  const mode = input.request === null || input.request === 'auto' ? input.config : input.request;
  if (mode === 'off') return ok(false);
  if (mode === 'on' && !input.classifierAvailable) return err('gate is forced on but the current build has no gate classifier (run the build with gate training)');
  return ok(input.classifierAvailable);
}

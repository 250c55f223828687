/**
 * The masking annotation's diagnoser when an LLM is configured (FIND §3.2.2 eq. 4-5: â =
 * LLM(Q, prompt), â' = LLM(Q', prompt); prompt = ICA-RAG Table 7 → prompts/gate-diagnose.md).
 * The answer is restricted to the KG's diseases by the schema, then mapped back to ids.
 * Contract of `Diagnoser`: an unusable answer (invalid even after the one repair) is [] — it
 * counts as a wrong diagnosis — while an outage or timeout throws, stopping the stage.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import type { LlmBudget } from '../adapters/llm/budget.js';
import { completeJson } from '../adapters/llm/structured.js';
import { InputError } from '../errors.js';
import { loadPrompt, type PromptFile } from '../adapters/llm/prompts.js';
import type { Diagnoser } from './masking-annotation.js';
import { renderSystemAndUser } from './prompt-parts.js';

export function loadGateDiagnosePrompt(opts: { dir?: string } = {}): Promise<PromptFile> {
  return loadPrompt('gate-diagnose', opts);
}

export function createLlmDiagnoser(
  services: { chat: BaseChatModel; prompt: PromptFile },
  input: { diseases: readonly { id: string; name: string }[]; timeoutMs: number; budget?: LlmBudget | null },
): Diagnoser {
  const byName = new Map(input.diseases.map((d) => [d.name, d.id]));
  const names = [...byName.keys()];
  if (names.length === 0) throw new InputError('LLM diagnoser needs at least one disease', { field: 'diseases' });
  const schema = z.object({ diagnoses: z.array(z.enum(names as [string, ...string[]])).min(1).max(5) });
  const diseaseList = names.map((n) => `- ${n}`).join('\n');
  return {
    async diagnose(sentences) {
      if (sentences.length === 0) return [];
      const { system, user } = renderSystemAndUser(services.prompt, { patient: sentences.join('\n'), diseases: diseaseList });
      const r = await completeJson({ chat: services.chat, system, prompt: user, schema, timeoutMs: input.timeoutMs, budget: input.budget ?? null });
      if (r.ok) return [...new Set(r.value.diagnoses)].map((n) => byName.get(n)!);
      if (r.error.kind === 'invalid') return [];
      throw r.error.error;
    },
  };
}

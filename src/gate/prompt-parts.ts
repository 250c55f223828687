import { PromptError, type PromptFile } from '../adapters/llm/prompts.js';

/**
 * The team's prompt-file convention (as prompts/diagnose.md): a leading "## System" block is
 * the system message, the rest the user message. Split after rendering, so a heading inside a
 * filled value cannot move the split.
 */
export function renderSystemAndUser(prompt: PromptFile, values: Record<string, string>): { system: string; user: string } {
  const m = /^\s*## System[ \t]*\r?\n([\s\S]*?)\r?\n(## [\s\S]*)$/.exec(prompt.fill(values));
  if (!m) throw new PromptError(`${prompt.path}: needs a leading "## System" block followed by a "## ..." user part`);
  return { system: m[1]!.trim(), user: m[2]!.trim() };
}

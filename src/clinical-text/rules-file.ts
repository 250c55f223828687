import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { LexiconError, errorMessage } from '../errors.js';
import { err, ok, type Result } from '../result.js';

/**
 * The clinical-text module's data files (the lexicon, section rules, identifier rules) are read
 * one way: JSON validated against the step's schema, every problem a LexiconError naming the file
 * and the first offending field as a dotted path. `what` names the file kind in messages.
 */
export function parseRulesFile<T>(schema: z.ZodType<T>, raw: unknown, path: string, what: string): Result<T, LexiconError> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const field = issue !== undefined && issue.path.length > 0 ? issue.path.map(String).join('.') : null;
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
  return err(new LexiconError(path, field, `${what} ${path}: ${field ?? '(root)'}: ${issue?.message ?? 'invalid'}${more}`));
}

export async function loadRulesFile<T>(schema: z.ZodType<T>, path: string, what: string): Promise<Result<T, LexiconError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return err(new LexiconError(path, null, `cannot read ${what} ${path}: ${errorMessage(e)}`, { cause: e }));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(new LexiconError(path, null, `${what} ${path}: not valid JSON: ${errorMessage(e)}`, { cause: e }));
  }
  return parseRulesFile(schema, raw, path, what);
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PromptTemplate } from '@langchain/core/prompts';
import { DxError } from '../../errors.js';

/**
 * Prompt templates live in `prompts/<name>.md`, each with a front matter that DECLARES
 * its placeholders, so a typo in a template or a forgotten value fails loudly instead of
 * sending the model a prompt with a hole in it:
 *
 *   ---
 *   placeholders: patient, records, differences
 *   description: MedRAG eq. 17 reasoning prompt            (optional, free text)
 *   ---
 *   Patient: {{patient}}
 *   ...
 *
 * Placeholders use mustache syntax (`{{name}}`, rendered without HTML escaping) so that
 * literal JSON examples with single braces need no escaping. Non-string values are
 * inserted as compact JSON.
 */
export class PromptError extends DxError {
  constructor(message: string) {
    super('PROMPT', message);
  }
}

/**
 * LangChain's template engine (with langsmith and the message classes, ~150 modules and ~0.4 s of
 * CPU) is loaded by the first parsePrompt, not at import: the pipeline, the gate and the reasoners
 * import this file, and a build, eval or server without an LLM never fills a prompt. A PromptFile
 * only comes from parsePrompt, so fill() finds the engine loaded. Nothing here hands the engine's
 * classes to an `instanceof` (a tsx-compiled test would see another copy of them).
 */
type TemplateEngine = typeof import('@langchain/core/prompts');
let engine: TemplateEngine | null = null;
const loadEngine = async (): Promise<TemplateEngine> => (engine ??= await import('@langchain/core/prompts'));
function loadedEngine(): TemplateEngine {
  if (!engine) throw new PromptError('a PromptFile is filled only after parsePrompt or loadPrompt has loaded the template engine');
  return engine;
}

export const DEFAULT_PROMPTS_DIR = fileURLToPath(new URL('../../../prompts/', import.meta.url));

export type PromptValue = string | number | boolean | object;

export class PromptFile {
  constructor(
    readonly name: string,
    readonly path: string,
    readonly placeholders: readonly string[],
    readonly template: string,
    readonly description: string | null,
  ) {}

  /** Fill every declared placeholder; a missing or an undeclared value throws PromptError. */
  fill(values: Record<string, PromptValue | null | undefined>): string {
    const given = Object.keys(values).filter((k) => values[k] !== undefined && values[k] !== null);
    const missing = this.placeholders.filter((p) => !given.includes(p));
    const extra = Object.keys(values).filter((k) => !this.placeholders.includes(k));
    if (missing.length > 0) throw new PromptError(`prompt "${this.name}": no value for placeholder(s) ${missing.join(', ')}`);
    if (extra.length > 0) throw new PromptError(`prompt "${this.name}" (${this.path}) declares no placeholder(s) ${extra.join(', ')}`);
    const rendered = Object.fromEntries(this.placeholders.map((p) => [p, toText(values[p]!)]));
    return loadedEngine().renderTemplate(this.template, 'mustache', rendered);
  }

  /** The same template as a LangChain PromptTemplate, for use in runnable chains. */
  asPromptTemplate(): PromptTemplate {
    return new (loadedEngine().PromptTemplate)({ template: this.template, templateFormat: 'mustache', inputVariables: [...this.placeholders] });
  }
}

export async function loadPrompt(name: string, opts: { dir?: string } = {}): Promise<PromptFile> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) throw new PromptError(`invalid prompt name ${JSON.stringify(name)}`);
  const path = join(opts.dir ?? DEFAULT_PROMPTS_DIR, `${name}.md`);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    throw new PromptError(`prompt file not found: ${path}`);
  }
  return parsePrompt(name, path, raw);
}

export async function parsePrompt(name: string, path: string, raw: string): Promise<PromptFile> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(raw);
  if (!m) throw new PromptError(`${path}: missing front matter (a '---' block with a 'placeholders:' line)`);
  const header = new Map<string, string>();
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^\s*([A-Za-z_]+)\s*:\s*(.*)$/.exec(line);
    if (kv) header.set(kv[1]!.toLowerCase(), kv[2]!.trim());
  }
  const declaredRaw = header.get('placeholders');
  if (declaredRaw === undefined) throw new PromptError(`${path}: front matter has no 'placeholders:' line (write 'placeholders:' with nothing after it for none)`);
  const declared = declaredRaw
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((s) => s.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
  const template = m[2]!;

  const { PromptTemplate } = await loadEngine();
  let used: string[];
  try {
    used = PromptTemplate.fromTemplate(template, { templateFormat: 'mustache' }).inputVariables as string[];
  } catch (e) {
    throw new PromptError(`${path}: template does not parse: ${e instanceof Error ? e.message : String(e)}`);
  }
  const undeclared = used.filter((u) => !declared.includes(u));
  const unused = declared.filter((d) => !used.includes(d));
  if (undeclared.length > 0) throw new PromptError(`${path}: template uses undeclared placeholder(s) ${undeclared.join(', ')}`);
  if (unused.length > 0) throw new PromptError(`${path}: declared placeholder(s) ${unused.join(', ')} not used in the template`);
  return new PromptFile(name, path, declared, template, header.get('description') ?? null);
}

function toText(v: PromptValue): string {
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

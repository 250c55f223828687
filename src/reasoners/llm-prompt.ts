import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { ArtifactError } from '../errors.js';
import type { ReasonerContext } from './reasoner.js';

/**
 * The p_s prompt of MedRAG eq. 17 (prompts/diagnose.md): a "## System" block (system
 * message) and the rest (user message: answer template + information), with
 * `{{placeholder}}` slots filled from the reasoner context. Bounded: the prompt must
 * fit a context window whatever the retrieval returned.
 */
export interface DiagnosePrompt {
  system: string;
  user: string;
}

const PLACEHOLDERS = ['patient', 'records', 'differences', 'diseases', 'followups'] as const;
const LIMITS = { records: 5, recordChars: 800, triples: 150, followups: 10 };
const PROMPT_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'prompts', 'diagnose.md');

export async function loadDiagnosePrompt(path: string = PROMPT_FILE): Promise<DiagnosePrompt> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ArtifactError(path, `prompt file ${path} is missing`, { cause: e });
  }
  return parseDiagnosePrompt(text, path);
}

export function parseDiagnosePrompt(text: string, path = 'prompts/diagnose.md'): DiagnosePrompt {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  const m = /^## System\s*\n([\s\S]*?)\n(## [\s\S]*)$/m.exec(body);
  if (!m) throw new ArtifactError(path, `prompt ${path} needs a "## System" block followed by the user part`);
  const missing = PLACEHOLDERS.filter((p) => !body.includes(`{{${p}}}`));
  if (missing.length > 0) throw new ArtifactError(path, `prompt ${path} lacks placeholders: ${missing.join(', ')}`);
  return { system: m[1]!.trim(), user: m[2]!.trim() };
}

/** One pass over the template, so text inserted from the patient is never re-expanded. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

export function renderDiagnosePrompt(prompt: DiagnosePrompt, ctx: ReasonerContext): DiagnosePrompt {
  const values = {
    patient: patientText(ctx),
    records: ctx.retrieved
      .slice(0, LIMITS.records)
      .map((r, i) => `[${i + 1}] diagnosis: ${r.diagnosis} (similarity ${r.similarity.toFixed(3)})\n${clip(r.text, LIMITS.recordChars)}`)
      .join('\n\n') || '(none retrieved)',
    differences: ctx.differencesKg
      .slice(0, LIMITS.triples)
      .map((t) => `(${t.subject}, ${t.relation}, ${t.object}${t.weight === null ? '' : `, ${t.weight.toFixed(2)}`})`)
      .join('\n') || '(empty)',
    diseases: ctx.snapshot.diseases.map((d) => `- ${d.name}`).join('\n'),
    followups: ctx.followUps.slice(0, LIMITS.followups).map((q) => `- ${q.text}`).join('\n') || '(none)',
  };
  return { system: fill(prompt.system, values), user: fill(prompt.user, values) };
}

function patientText(ctx: ReasonerContext): string {
  const { input } = ctx;
  const demo = [input.age !== null ? `age ${input.age}` : null, input.sex ? `sex ${input.sex}` : null].filter(Boolean).join(', ');
  const listed = (fs: { text: string; polarity: string }[]) => fs.map((f) => `- ${f.polarity === 'absent' ? 'NOT: ' : ''}${f.text}`).join('\n');
  const text = input.text?.trim() ?? '';
  // Free text as written, structured findings as a list; the decomposed findings only when neither is there.
  const body = [text, input.findings.length > 0 ? `Reported findings:\n${listed(input.findings)}` : ''].filter(Boolean).join('\n\n') || listed(ctx.findings);
  return [demo, body].filter(Boolean).join('\n');
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

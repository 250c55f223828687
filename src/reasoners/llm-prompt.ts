import { loadPrompt, PromptError, type PromptFile } from '../adapters/llm/prompts.js';
import type { ReasonerContext } from './reasoner.js';

/**
 * The p_s prompt of MedRAG eq. 17 (prompts/diagnose.md, loaded with the LLM adapter's
 * prompt loader): its "## System" block becomes the system message, the rest (answer
 * template + information) the user message, with the declared placeholders filled from
 * the reasoner context. Bounded: the prompt must fit a context window whatever the
 * retrieval returned.
 */
export interface DiagnosePrompt {
  system: string;
  user: string;
}

export interface PromptLimits {
  records: number;
  recordChars: number;
  triples: number;
  followups: number;
  /**
   * One line per disease and relation ("Pneumonia HAS_MANIFESTATION: Chills 0.84; Cough 0.90")
   * instead of one per triple: the same triples in less than half the tokens (946 -> 412 for 36
   * triples with SmolLM2's tokenizer, docs/testing.md round 7). Absent = one per triple.
   */
  grouped?: boolean;
}

export const DEFAULT_PROMPT_LIMITS: PromptLimits = { records: 5, recordChars: 800, triples: 150, followups: 10 };
/**
 * For an in-process model on CPU (DXGRAPH_LLM=local): prompt evaluation is most of a diagnose's
 * time there (SmolLM2-135M read 66 prompt tokens/s on this shared 2-CPU machine, docs/llm.md),
 * and a small model gains little from the 5th record or the 100th triple.
 * One triple per line (not `grouped`): SmolLM2-135M picks its first diagnosis among the diseases
 * it reads most often, and a grouped line names a candidate once instead of once per triple; with
 * grouped lines half its first diagnoses fell outside the candidates (dev vignettes, 24: top-1
 * 29.2% -> 37.5%, outside 50% -> 25% ungrouped, for ~435 more prompt tokens; docs/llm.md, 30 Nov).
 */
export const COMPACT_PROMPT_LIMITS: PromptLimits = { records: 2, recordChars: 300, triples: 36, followups: 5, grouped: false };

export function loadDiagnosePrompt(opts: { dir?: string } = {}): Promise<PromptFile> {
  return loadPrompt('diagnose', opts);
}

/** Split the rendered prompt at its "## System" block (rendered first, so headings in values cannot move the split). */
function splitSystem(rendered: string, path: string): DiagnosePrompt {
  const m = /^\s*## System[ \t]*\r?\n([\s\S]*?)\r?\n(## [\s\S]*)$/.exec(rendered);
  if (!m) throw new PromptError(`${path}: needs a leading "## System" block followed by a "## ..." user part`);
  return { system: m[1]!.trim(), user: m[2]!.trim() };
}

export function renderDiagnosePrompt(prompt: PromptFile, ctx: ReasonerContext, LIMITS: PromptLimits = DEFAULT_PROMPT_LIMITS): DiagnosePrompt {
  const values = {
    patient: patientText(ctx),
    records: ctx.retrieved
      .slice(0, LIMITS.records)
      // The summary (clinical labels) where the build has one: the report speaks to a clinician, and
      // the same characters hold about twice the findings of a DDXPlus questionnaire's text.
      .map((r, i) => `[${i + 1}] diagnosis: ${r.diagnosis} (similarity ${r.similarity.toFixed(3)})\n${clip(r.summary ?? r.text, LIMITS.recordChars)}`)
      .join('\n\n') || '(none retrieved)',
    differences: renderTriples(takeAcrossSubjects(ctx.differencesKg, LIMITS.triples), LIMITS.grouped ?? false) || '(empty)',
    diseases: ctx.snapshot.diseases.map((d) => `- ${d.name}`).join('\n'),
    followups: ctx.followUps.slice(0, LIMITS.followups).map((q) => `- ${q.text}`).join('\n') || '(none)',
  };
  return splitSystem(prompt.fill(values), prompt.path);
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

type Triple = ReasonerContext['differencesKg'][number];

function renderTriples(triples: readonly Triple[], grouped: boolean): string {
  const weight = (t: Triple) => (t.weight === null ? '' : `${grouped ? ' ' : ', '}${t.weight.toFixed(2)}`);
  if (!grouped) return triples.map((t) => `(${t.subject}, ${t.relation}, ${t.object}${weight(t)})`).join('\n');
  const lines = new Map<string, string[]>(); // in first-seen order: the candidates' order is kept
  for (const t of triples) {
    const key = `${t.subject} ${t.relation}`;
    lines.set(key, [...(lines.get(key) ?? []), `${t.object}${weight(t)}`]);
  }
  return [...lines].map(([key, objects]) => `${key}: ${objects.join('; ')}`).join('\n');
}

/** At most `n` triples, taken in turn from each subject (disease), so a cut never drops the last candidates whole. */
function takeAcrossSubjects<T extends { subject: string }>(triples: readonly T[], n: number): T[] {
  if (triples.length <= n) return [...triples];
  const bySubject = new Map<string, T[]>();
  for (const t of triples) bySubject.set(t.subject, [...(bySubject.get(t.subject) ?? []), t]);
  const queues = [...bySubject.values()];
  const out: T[] = [];
  for (let i = 0; out.length < n; i++) for (const q of queues) if (i < q.length && out.length < n) out.push(q[i]!);
  return out;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

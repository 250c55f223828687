/**
 * The clinical-voice data file (issue 48 item 2): per source question code, the label a clinician
 * reads and the question put to the clinician, and for categorical questions the words of each
 * value and the form a value's label takes. The shipped file is datasets/lexicon/clinical-voice.json
 * (DDXPlus's 223 evidences); the schema rejects any label or question the voice checks reject, so
 * a bad entry fails at load, not in front of a clinician.
 */
import { z } from 'zod';
import { LexiconError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { labelProblems, questionProblems } from './voice-checks.js';

const label = z.string().superRefine((s, ctx) => {
  const p = labelProblems(s);
  if (p.length > 0) ctx.addIssue({ code: 'custom', message: `not a clinical label (${p.join(', ')})` });
});
const question = z.string().superRefine((s, ctx) => {
  const p = questionProblems(s);
  if (p.length > 0) ctx.addIssue({ code: 'custom', message: `not a clinical question (${p.join(', ')})` });
});
const valueCode = z.string().regex(/^V_\d+$/, 'value keys are source value codes (V_n)');

const entrySchema = z.strictObject({
  /** The source's own question (DDXPlus question_en): the entry applies to features asked by it, or by no question. */
  source: z.string().min(1),
  label,
  question,
  /** How a value's label reads: "{value}" is the value's words ("Rash colour {value}"); default "{label} {value}". */
  valueForm: z.string().includes('{value}').optional(),
  /** The words of each value, as an answer option shows them ("pink"). */
  values: z.record(valueCode, z.string().min(1)).optional(),
  /** A whole label for a value the form would not read well ("Pain does not radiate"). */
  valueLabels: z.record(valueCode, label).optional(),
  /** "sites": the values are the shared body sites. */
  valueSet: z.literal('sites').optional(),
});

const fileSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().min(1),
  evidences: z.record(z.string().regex(/^[A-Z]+_\d+$/, 'keys are source question codes (E_n)'), entrySchema),
  sites: z.record(valueCode, z.string().min(1)),
});

export type VoiceEntry = z.infer<typeof entrySchema>;
export type VoiceData = z.infer<typeof fileSchema>;

export function parseVoiceData(raw: unknown, where: string): Result<VoiceData, LexiconError> {
  const r = fileSchema.safeParse(raw);
  if (r.success) return ok(r.data);
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || null;
  return err(new LexiconError(where, field, `${where}: ${field ?? '(file)'}: ${issue.message}`));
}

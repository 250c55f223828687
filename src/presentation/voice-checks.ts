/**
 * The clinical voice's forms (issue 48 item 2), as checks the unit tests and
 * bench/clinical-voice.ts both run: a label a clinician reads is a short clinical phrase, and a
 * question is one question to the clinician about the patient. Each check returns the rules a
 * text breaks (empty: it passes), so a bench can count and show the worst ones.
 */
export const MAX_LABEL_CHARS = 60;
/** A question is a label and its "?" (a little room for "Recent travel to"-style leads). */
export const MAX_QUESTION_CHARS = 80;

/** The patient's voice: a question put to the patient, or their own words. */
const SECOND_PERSON = /\b(you|your|yours|yourself)\b/i;
/** A question's opening words: "Do you ...", "Are the symptoms ...", "How intense ...". */
const QUESTION_LEAD = /^(do|does|did|are|is|was|were|have|has|had|can|could|would|will|should|how|what|where|when|which|who|why|characteri[sz]e|describe)\b/i;
/** An answer glued onto a label or question: "...? yes", "rash color: pink", "cough yes". */
const GLUED_ANSWER = /(\?\s*\S|:\s*\S.*$|\s(yes|no|y|n)$)/i;
/** The generic template the old follow-ups used ("Does the patient have: x?"). */
const TEMPLATE = /\bdoes the patient have\b/i;

export type VoiceProblem =
  | 'empty'
  | 'too-long'
  | 'second-person'
  | 'question-form'
  | 'glued-answer'
  | 'colon'
  | 'not-one-question'
  | 'template'
  | 'unreadable';

/** Readable: mostly letters, at least one word of three letters, no markup or code-like tokens. */
function readable(s: string): boolean {
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  if (letters < 3 || letters / s.replace(/\s/g, '').length < 0.5) return false;
  if (!/\p{L}{3,}/u.test(s)) return false;
  return !/[_{}<>[\]|\\=]|\b[A-Z]_\d+\b/.test(s);
}

/** The rules a feature label breaks: at most 60 characters, a phrase (not a question), no appended answer. */
export function labelProblems(label: string): VoiceProblem[] {
  const s = label.trim();
  if (s === '') return ['empty'];
  const out: VoiceProblem[] = [];
  if (s.length > MAX_LABEL_CHARS) out.push('too-long');
  if (SECOND_PERSON.test(s)) out.push('second-person');
  if (s.includes('?') || QUESTION_LEAD.test(s)) out.push('question-form');
  if (s.includes(':')) out.push(GLUED_ANSWER.test(s) ? 'glued-answer' : 'colon');
  else if (/\s(yes|no)$/i.test(s)) out.push('glued-answer');
  if (TEMPLATE.test(s)) out.push('template');
  if (!readable(s)) out.push('unreadable');
  return out;
}

/** The rules a question breaks: one question ending in "?", no ":", no "you", phrased from a clinical label. */
export function questionProblems(question: string): VoiceProblem[] {
  const s = question.trim();
  if (s === '') return ['empty'];
  const out: VoiceProblem[] = [];
  if (s.length > MAX_QUESTION_CHARS) out.push('too-long');
  if (SECOND_PERSON.test(s)) out.push('second-person');
  if (!s.endsWith('?') || s.indexOf('?') !== s.length - 1) out.push('not-one-question');
  if (s.includes(':')) out.push('colon');
  if (TEMPLATE.test(s)) out.push('template');
  if (!readable(s)) out.push('unreadable');
  return out;
}

export const isClinicalLabel = (label: string): boolean => labelProblems(label).length === 0;
export const isClinicalQuestion = (question: string): boolean => questionProblems(question).length === 0;

/**
 * A clinical label from a feature's own text when no reviewed entry names it (HPO names, SNOMED or
 * OMOP displays, emergent concepts, or a source whose findings are questions with answers): the
 * patient-facing lead and a glued yes/no are taken off, a SNOMED semantic tag dropped, and the
 * phrase kept to 60 characters at a word boundary.
 */
import { MAX_LABEL_CHARS } from './voice-checks.js';

/** "Do you have ...", "Have you ever had ...", "Does the patient have: ..." */
const LEAD =
  /^(does the patient have:?|(do|did|are|were|have|has|is|was)\s+(you|your|the patient)\s+((currently|ever|recently|previously|been|have|had|feel|felt|experienc\w*|notic\w*|suffer\w*|take|taken)\s+)*((from|a|an|any|the|with)\s+)?)/i;
const TAG = /\s*\((finding|disorder|symptom|observable entity|situation|morphologic abnormality|clinical finding)\)\s*$/i;
const GLUED = /(\s*[?:]\s*(yes|no|y|n)?|\s+(yes|no))\s*$/i;

const capitalise = (s: string): string => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

/** At most `max` characters, cut at a word boundary (an ellipsis says so). */
export function clip(s: string, max = MAX_LABEL_CHARS): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;.-]+$/, '')}…`;
}

/** A label from free text: "Do you have a cough? yes" -> "Cough"; "Fever (finding)" -> "Fever". */
export function plainLabel(text: string, opts: { question?: string | null; valueText?: string | null } = {}): string {
  let s = text.trim().replace(/\s+/g, ' ');
  let answer: string | null = null;
  const q = opts.question?.trim();
  if (q && s.startsWith(q)) {
    answer = s.slice(q.length).trim() || (opts.valueText ?? null);
    s = q;
  }
  s = s.replace(GLUED, '').replace(TAG, '').replace(LEAD, '').replace(/[?:.]+$/, '').trim();
  // What is left in the patient's voice is said of the patient ("pain in your chest").
  s = s.replace(/\byour\b/gi, 'the').replace(/\byou\b/gi, 'the patient').replace(/:/g, ' ').replace(/\s+/g, ' ');
  if (answer && !/^(yes|y)$/i.test(answer)) s = /^(no|n)$/i.test(answer) ? `No ${s}` : `${s} ${answer}`;
  return clip(capitalise(s));
}

import type { FeatureNode } from '../../domain/kg.js';

/**
 * Surface forms for a feature no lexicon covers, from the source's own labels: the short
 * label itself, "value label" for "label: value" features, and a yes/no question turned
 * into its subject ("Do you have a cough?" → "cough"). A question sentence as a whole is
 * never a form: it would match any text that shares its filler words.
 */
const YES = /^(?:yes|y|true|present|positive|1)$/i;
const QUESTION_LEAD = /^(?:do|does|did|are|is|have|has|were|was)\s+(?:you|they|he|she)\s+(?:have|had|feel|felt|been|ever had|experienced?|noticed?|suffer from|got)?\s*(?:a|an|any|the)?\s*/i;

export function deriveForms(f: Pick<FeatureNode, 'text' | 'question' | 'valueText' | 'forms'>): string[] {
  const out = new Set<string>();
  // A concept read from notes carries its vocabulary's synonyms or the phrases it emerged from.
  for (const form of f.forms ?? []) out.add(form);
  const label = /^([^:?]{2,60}):\s*(.{1,80})$/.exec(f.text);
  if (label) {
    out.add(`${label[2]} ${label[1]}`.trim());
  } else if (!f.text.includes('?') && f.text.split(/\s+/).length <= 8) {
    out.add(f.text.trim());
  }
  if (f.question && (f.valueText === null || YES.test(f.valueText))) {
    const subject = f.question.replace(QUESTION_LEAD, '').replace(/[?.]+$/, '').trim();
    if (subject && subject.split(/\s+/).length <= 8) out.add(subject);
  } else if (f.question && f.valueText && !label) {
    const q = f.question.replace(QUESTION_LEAD, '').replace(/[?.:]+$/, '').trim();
    if (q.split(/\s+/).length <= 6) out.add(`${f.valueText} ${q}`);
  }
  return [...out].filter((s) => /[a-z]/i.test(s));
}

/**
 * What the clinician is shown of an LLM's report (issue 48). A local model writes under a
 * grammar that caps every string (adapters/llm/grammar-schema.ts: 120 characters), so its
 * narrative often stops mid-sentence: the report keeps whole sentences only. A small local model
 * is not a source of treatment advice: its treatments and medications are left out and any
 * sentence of its narrative that states a dose is dropped (`clinicalAdvice: false`).
 */
export interface LlmReport {
  narrative: string;
  treatments: string[];
  medications: string[];
}

/** A sentence ends with . ! or ? (closing quotes or brackets allowed) before a space or the end. */
const SENTENCE = /[^.!?]*[.!?]+["')\]]*(?=\s|$)/g;

/** A dose: a number with a unit of amount or rate ("500 mg", "0.5mcg", "2 puffs", "10 mL/kg", "q6h"). */
const DOSE = /\b\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ug|g|gram|grams|ml|mL|l|iu|IU|units?|puffs?|tablets?|tabs?|caps?|capsules?|drops?|mmol|meq|mEq)\b|\bq\d+h\b|\b(?:once|twice|three times) (?:a|per) day\b|\b(?:bid|tid|qid|qds|tds)\b/i;

/** The text up to its last complete sentence ('' when it has none). */
export function completeSentences(text: string): string {
  return (text.match(SENTENCE) ?? []).join('').trim();
}

export function statesDose(sentence: string): boolean {
  return DOSE.test(sentence);
}

export function shapeReport(report: LlmReport, opts: { clinicalAdvice: boolean }): LlmReport {
  const sentences = (report.narrative.match(SENTENCE) ?? []).map((s) => s.trim()).filter(Boolean);
  const kept = opts.clinicalAdvice ? sentences : sentences.filter((s) => !statesDose(s));
  return {
    narrative: kept.join(' '),
    treatments: opts.clinicalAdvice ? report.treatments : [],
    medications: opts.clinicalAdvice ? report.medications : [],
  };
}

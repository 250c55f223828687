/**
 * What the clinician is shown of an LLM's report (issue 48). A local model writes under a
 * grammar that caps every string (adapters/llm/grammar-schema.ts: 120 characters), so its
 * narrative often stops mid-sentence: a capped report keeps whole sentences only. An endpoint's
 * answer is whole JSON or no answer, so its last sentence is kept even without a full stop. A
 * small local model is not a source of treatment advice: its treatments and medications are left
 * out and any sentence of its narrative that states a dose is dropped (`clinicalAdvice: false`).
 */
export interface LlmReport {
  narrative: string;
  treatments: string[];
  medications: string[];
}

const STOPS = '.!?';
const CLOSERS = `"')]`;

/**
 * The sentences of a text: a sentence ends with . ! or ? (closing quotes or brackets allowed)
 * before a space or the end, so a stop inside a word or number ("38.5") ends none. What follows
 * the last one is kept only when the text was not capped. One pass (an LLM's text may be any
 * run of stops: no backtracking regex).
 */
function sentencesOf(text: string, capped: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!STOPS.includes(text[i]!)) continue;
    let j = i;
    while (j < text.length && STOPS.includes(text[j]!)) j++;
    while (j < text.length && CLOSERS.includes(text[j]!)) j++;
    if (j === text.length || /\s/.test(text[j]!)) {
      const sentence = text.slice(start, j).trim();
      if (sentence) out.push(sentence);
      start = j;
    }
    i = j - 1;
  }
  const rest = text.slice(start).trim();
  if (!capped && rest) out.push(rest);
  return out;
}

/** A dose: a number with a unit of amount or rate ("500 mg", "0.5mcg", "2 puffs", "10 mL/kg", "q6h"). */
const DOSE = /\b\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ug|g|gram|grams|ml|mL|l|iu|IU|units?|puffs?|tablets?|tabs?|caps?|capsules?|drops?|mmol|meq|mEq)\b|\bq\d+h\b|\b(?:once|twice|three times) (?:a|per) day\b|\b(?:bid|tid|qid|qds|tds)\b/i;

/** The text up to its last complete sentence ('' when it has none). */
export function completeSentences(text: string): string {
  return sentencesOf(text, true).join(' ');
}

export function statesDose(sentence: string): boolean {
  return DOSE.test(sentence);
}

/** `capped`: the model's strings may stop mid-sentence (a local model's grammar); whole sentences only then. */
export function shapeReport(report: LlmReport, opts: { clinicalAdvice: boolean; capped: boolean }): LlmReport {
  const sentences = sentencesOf(report.narrative, opts.capped);
  const kept = opts.clinicalAdvice ? sentences : sentences.filter((s) => !statesDose(s));
  return {
    narrative: kept.join(' '),
    treatments: opts.clinicalAdvice ? report.treatments : [],
    medications: opts.clinicalAdvice ? report.medications : [],
  };
}

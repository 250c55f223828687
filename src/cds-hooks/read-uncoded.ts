import type { InputFinding } from '../clinical-text/findings.js';
import type { DiagnoseResult } from '../query/contracts.js';

/**
 * A chart fact whose code the KG does not know (another SNOMED concept for a sore throat, a
 * local code) is not lost: it is read through its words, its coding's display or `code.text`
 * (the finding's text, fhir-codes.ts), as the same phrase written in a note would be (issue 48).
 * Which codes the KG knows is what a diagnose of the coded findings matched by code.
 */
export interface ChartPhrases {
  /** The phrases, one sentence each, in the order of `facts`. */
  text: string;
  /** Each phrase's chart fact and where it sits in `text`. */
  facts: Array<{ label: string; start: number; end: number }>;
}

/** The codes of `findings` that a diagnose matched to a KG feature by code. */
export function codesMatched(result: Pick<DiagnoseResult, 'trace'>): Set<string> {
  const out = new Set<string>();
  for (const m of result.trace.matches) {
    const f = result.trace.findings[m.findingIndex];
    if (m.via === 'code' && f?.code) out.add(`${f.code}|${f.valueCode ?? ''}`);
  }
  return out;
}

export const codeOf = (f: InputFinding): string => `${f.code}|${f.valueCode ?? ''}`;

/** "Sore throat." / "No chest pain." / "History of palpitations.": a fact as a note would write it. */
export function phraseOf(f: InputFinding): string {
  // A boolean Observation's text carries its answer ("Rash: absent"): the polarity says it already.
  const words = f.text.trim().replace(/:\s*(?:absent|present)$/i, '').replace(/[.;:\s]+$/, '');
  const said = f.polarity === 'absent' ? `No ${words.charAt(0).toLowerCase()}${words.slice(1)}` : words;
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}

export function chartPhrases(findings: readonly InputFinding[], scrub: (text: string) => string): ChartPhrases {
  let text = '';
  const facts: ChartPhrases['facts'] = [];
  for (const f of findings) {
    const phrase = scrub(phraseOf(f)).trim();
    if (phrase === '') continue;
    if (text !== '') text += '\n';
    facts.push({ label: f.text, start: text.length, end: text.length + phrase.length });
    text += phrase;
  }
  return { text, facts };
}

/** Labels of the phrases none of whose words the diagnose matched to the KG (by the finding spans of its trace). */
export function phrasesUnread(phrases: ChartPhrases, result: Pick<DiagnoseResult, 'trace'>): string[] {
  const read = result.trace.matches.map((m) => result.trace.findings[m.findingIndex]?.span).filter((s) => s !== undefined);
  return phrases.facts.filter((p) => !read.some((s) => s.start >= p.start && s.end <= p.end)).map((p) => p.label);
}

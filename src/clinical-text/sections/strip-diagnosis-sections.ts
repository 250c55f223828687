/**
 * Leaves out what a note says the diagnosis is (issue 24): a KG built from notes whose assessment
 * or discharge diagnosis became features would learn the label, not the presentation. The text
 * is blanked, not cut, so every other offset (findings, spans, the analyser's masks) stays valid.
 */
import type { Section } from './detect-sections.js';

export interface RemovedSection {
  kind: string;
  /** UTF-16 code units blanked: heading, separator and body. */
  chars: number;
}

export interface StrippedText {
  /** Same length as the input; heading and body of each diagnosis section replaced by spaces. */
  text: string;
  /** One entry per blanked section, in text order (for the build report). */
  removed: RemovedSection[];
}

/** Spaces for every character but line breaks, so the analyser's line-based sentences stay apart. */
const blank = (s: string) => s.replace(/[^\r\n]/g, ' ');

/**
 * Blanks every section that states the diagnosis, heading included. `sections` must be the
 * detector's output for this text (ordered, non-overlapping, in range); anything else is a bug
 * of the caller and throws rather than blanking the wrong text.
 */
export function withoutDiagnosisSections(text: string, sections: readonly Section[]): StrippedText {
  const parts: string[] = [];
  const removed: RemovedSection[] = [];
  let at = 0;
  let previousEnd = 0;
  for (const s of sections) {
    if (!(previousEnd <= s.headingStart && s.headingStart <= s.start && s.start <= s.end && s.end <= text.length)) {
      throw new RangeError(`section ${s.kind ?? '(preamble)'} [${s.headingStart}, ${s.end}) is out of order or outside the text (${text.length})`);
    }
    previousEnd = s.end;
    if (!s.statesDiagnosis || s.kind === null) continue;
    parts.push(text.slice(at, s.headingStart), blank(text.slice(s.headingStart, s.end)));
    removed.push({ kind: s.kind, chars: s.end - s.headingStart });
    at = s.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), removed };
}

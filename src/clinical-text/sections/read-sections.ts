/**
 * Findings read with the section they sit in (issue 47), as clinicians structure a note: the
 * past medical and surgical history is history, medications and allergies are treatment history
 * (never present findings: "lisinopril", "allergic to penicillin"), the family history is the
 * family's, a body system's templated normals say what is absent. The analysis sets these
 * attributes from cues on a finding's own line ("PMH: HTN"); a section's heading reaches its
 * whole body ("PAST MEDICAL HISTORY:\n1. Hypertension.\n2. COPD.").
 */
import type { InputFinding } from '../findings.js';
import { detectSections, type Section } from './detect-sections.js';
import { SECTION_ROLES, type SectionRole, type SectionRules } from './section-rules.js';
import { withoutDiagnosisSections, type RemovedSection } from './strip-diagnosis-sections.js';

/** The section a finding placed at `at` (a UTF-16 offset) sits in; null before any heading. */
export function sectionAt(sections: readonly Section[], at: number): Section | null {
  let lo = 0;
  let hi = sections.length - 1;
  let found: Section | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sections[mid]!.headingStart <= at) {
      found = sections[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found?.kind ? found : null;
}

/** True when the section's heading starts its line: a note's section, not a label inside a sentence run ("Smoker. FHx: ..."). */
export function headsLine(text: string, section: Section): boolean {
  const lineStart = text.lastIndexOf('\n', section.headingStart - 1) + 1;
  return /^[\s\-*•#\d.)]*$/.test(text.slice(lineStart, section.headingStart));
}

/**
 * The finding as its section means it; a cue the analysis read on the line itself wins. A heading
 * inside a line of prose ("... pk-yr. FHx: sister w/ pancreatic ca. No fever.") reaches only what
 * the analysis gives its cue, so the denials after it stay the patient's.
 */
export function withSectionMeaning(f: InputFinding, section: Section | null, text: string): InputFinding {
  if (section === null || section.kind === null) return f;
  const out: InputFinding = { ...f, section: section.kind };
  if (!headsLine(text, section)) return out;
  const cue = f.cue ?? section.heading?.trim() ?? null;
  switch (section.role) {
    case 'history':
    case 'treatment':
      if (f.temporality !== 'historical') Object.assign(out, { temporality: 'historical', cue });
      break;
    case 'family':
      if (f.experiencer === 'patient' || f.experiencer === undefined) Object.assign(out, { experiencer: 'family', cue });
      break;
    default:
      break;
  }
  return out;
}

/** Where a section's role comes in the order findings are kept (presentation first). */
export const keepRank = (role: SectionRole | null): number => (role === null ? 0 : SECTION_ROLES.indexOf(role));

export interface NoteStructure {
  sections: Section[];
  /** True when the text is a note with headings, not a question: its conclusion sections are left out. */
  structured: boolean;
  /** The text the analysis reads: conclusion sections blanked when structured (offsets kept). */
  text: string;
  leftOut: RemovedSection[];
}

/**
 * Three headed sections or more make a structured note ("CC:", "HPI:", "EXAM:"; an operative
 * report's "PREOPERATIVE DIAGNOSIS:", "POSTOPERATIVE DIAGNOSIS:", "PROCEDURE:"); a question with
 * one or two labelled parts ("PMH: HTN. Assessment: ?ACS") is read whole, as written.
 */
export const MIN_NOTE_SECTIONS = 3;

export function noteStructure(text: string, rules: SectionRules): NoteStructure {
  const sections = detectSections(text, rules);
  const structured = sections.filter((s) => s.kind !== null).length >= MIN_NOTE_SECTIONS;
  if (!structured) return { sections, structured, text, leftOut: [] };
  const stripped = withoutDiagnosisSections(text, sections);
  return { sections, structured, text: stripped.text, leftOut: stripped.removed };
}

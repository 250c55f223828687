import { detectSections, withoutDiagnosisSections, type SectionRules } from '../../src/clinical-text/sections/index.js';

/**
 * The two ways a held-out real note is asked (issue 47). "whole": the note with the sections that
 * state the diagnosis cut (assessment, impression, plan, diagnoses, hospital course): the
 * clinician's own conclusion is not evidence. "presentation": only what a clinician has before the
 * assessment: chief complaint, HPI, review of systems, social and family history, exam, vitals and
 * labs (the text before the first heading too); past history, medications and allergies stay out.
 */
export type View = 'presentation' | 'whole';
export const VIEWS: readonly View[] = ['presentation', 'whole'];

/** Section kinds of the shipped rules (section-rules.json) read in the presentation view; null is the text before the first heading. */
const PRESENTATION_KINDS = new Set<string | null>([null, 'note_setting', 'chief_complaint', 'hpi', 'reason_for_admission', 'ros', 'social', 'family', 'exam', 'body_system', 'labs']);

/** `text` must be scrubbed already (the bench scrubs as the build does). */
export function noteView(text: string, view: View, rules: SectionRules): string {
  const sections = detectSections(text, rules);
  if (view === 'whole') return withoutDiagnosisSections(text, sections).text;
  return sections
    .filter((s) => PRESENTATION_KINDS.has(s.kind) && !s.statesDiagnosis)
    .map((s) => text.slice(s.headingStart, s.end).trim())
    .filter((s) => s !== '')
    .join('\n\n');
}

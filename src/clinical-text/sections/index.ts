/** Section detection for clinical notes (issue 24): headings as data, diagnosis sections blanked before analysis. */
export { detectSections, type Section } from './detect-sections.js';
export { withoutDiagnosisSections, type RemovedSection, type StrippedText } from './strip-diagnosis-sections.js';
export { defaultSectionRulesPath, loadSectionRules, parseSectionRules, type SectionRule, type SectionRules } from './section-rules.js';
export { keepRank, noteStructure, sectionAt, withSectionMeaning, MIN_NOTE_SECTIONS, type NoteStructure } from './read-sections.js';
export { readTemplatedNormal } from './templated-normals.js';
export { SECTION_ROLES, roleOf, type SectionRole } from './section-rules.js';
export { sectionRole, shippedSectionRules } from './shipped-rules.js';

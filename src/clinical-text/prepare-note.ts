import { loadIdentifierRules, PLACEHOLDER, scrubIdentifiers, type IdentifierRules } from './deidentify/index.js';
import type { PreparedNote } from './read-notes.js';
import { detectSections, loadSectionRules, withoutDiagnosisSections, type SectionRules } from './sections/index.js';

/**
 * A note made fit to read (issue 24): identifiers scrubbed first (names, dates, record numbers,
 * phones, addresses: deidentify/), then every section that states the diagnosis (assessment,
 * impression, plan, discharge diagnosis: sections/) blanked, so neither an identifier nor the
 * label can become a feature. Both rule sets are data files the clinical-text module ships.
 */
export function prepareNote(text: string, rules: { identifiers: IdentifierRules; sections: SectionRules }): PreparedNote {
  const scrubbed = scrubIdentifiers(text, rules.identifiers);
  // The placeholders ("[NAME]", "[MRN]") are blanked too: in every note's header, they would read
  // as words and become an emergent concept of every disease.
  const blanked = scrubbed.text.replace(PLACEHOLDER, (m) => ' '.repeat(m.length));
  const stripped = withoutDiagnosisSections(blanked, detectSections(blanked, rules.sections));
  const leftOut: Record<string, number> = {};
  for (const r of stripped.removed) leftOut[r.kind] = (leftOut[r.kind] ?? 0) + r.chars;
  const found: Record<string, number> = {};
  for (const [k, v] of Object.entries(scrubbed.found)) if (v > 0) found[k] = v;
  return { text: stripped.text, leftOut, scrubbed: found };
}

/** The shipped rule files, loaded once; a broken file stops the build naming it. */
export async function defaultNotePreparer(): Promise<(text: string) => PreparedNote> {
  const identifiers = await loadIdentifierRules();
  if (!identifiers.ok) throw identifiers.error;
  const sections = await loadSectionRules();
  if (!sections.ok) throw sections.error;
  const rules = { identifiers: identifiers.value, sections: sections.value };
  return (text) => prepareNote(text, rules);
}

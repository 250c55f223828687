import rules from './section-rules.json' with { type: 'json' };
import { parseSectionRules, roleOf, type SectionRole, type SectionRules } from './section-rules.js';

let parsed: SectionRules | null = null;

/**
 * The shipped section rules for the query path, which has no loader step: validated at first use,
 * and a broken shipped file throws (a release bug), as the build's loader stops naming it.
 */
export function shippedSectionRules(): SectionRules {
  if (parsed) return parsed;
  const r = parseSectionRules(rules, 'src/clinical-text/sections/section-rules.json');
  if (!r.ok) throw r.error;
  return (parsed = r.value);
}

let roles: Map<string, SectionRole> | null = null;

/** The role of a section kind in the shipped rules; null for a kind they do not have. */
export function sectionRole(kind: string | undefined): SectionRole | null {
  if (kind === undefined) return null;
  roles ??= new Map(shippedSectionRules().sections.map((r) => [r.kind, roleOf(r)]));
  return roles.get(kind) ?? null;
}

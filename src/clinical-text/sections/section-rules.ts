/**
 * The section rules file (issue 24): which headings open which kind of section, and whether that
 * kind states the diagnosis. The rules are data handed to `detectSections`, so a site with other
 * headings ships another file instead of editing code. The loader rejects what the detector could
 * not use reliably (upper-case headings, one heading under two kinds) rather than let it misread.
 */
import { loadRulesFile, parseRulesFile } from '../rules-file.js';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LexiconError } from '../../errors.js';
import type { Result } from '../../result.js';

/** The rules shipped next to this file (resolved from it, so it works from any cwd). */
export function defaultSectionRulesPath(): string {
  return fileURLToPath(new URL('./section-rules.json', import.meta.url));
}

/** Headings are compared in this form: lower case, single spaces, no spaces around / & +. */
export function normalizeHeading(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').replace(/ ?([/&+]) ?/g, '$1').trim();
}

const heading = z
  .string()
  .min(1, 'must not be blank')
  .refine((s) => s === s.toLowerCase().replace(/\s+/g, ' ').trim(), 'must be lower case with single spaces (headings match case-insensitively)');

/**
 * How a section is read (issue 47): the order is the order in which findings are kept when a note
 * gives more than a request may read (presentation first). `conclusion` is the clinician's own.
 */
export const SECTION_ROLES = ['presentation', 'setting', 'exam', 'results', 'ros', 'history', 'social', 'family', 'treatment', 'conclusion'] as const;
export type SectionRole = (typeof SECTION_ROLES)[number];

const ruleSchema = z
  .strictObject({
    kind: z.string().regex(/^[a-z][a-z_]*$/, 'kinds are snake_case'),
    /** Absent: "conclusion" for sections that state the diagnosis, else "presentation". */
    role: z.enum(SECTION_ROLES).optional(),
    /** A body system ("NECK:", "LUNGS:"): continues the exam or review of systems it sits in. */
    subsection: z.boolean().optional(),
    /** True for sections whose text names the diagnosis (assessment, plan, diagnosis): blanked before analysis. */
    statesDiagnosis: z.boolean(),
    headings: z.array(heading).min(1, 'needs at least 1 heading'),
    /** Headings that also name a finding or are one letter ("pe", "p"): see detect-sections.ts. */
    ambiguous: z.array(heading),
  })
  .superRefine((rule, ctx) => {
    if (rule.statesDiagnosis !== (rule.role === 'conclusion') && rule.role !== undefined) ctx.addIssue({ code: 'custom', path: ['role'], message: 'role "conclusion" goes with statesDiagnosis true, and only with it' });
    rule.ambiguous.forEach((h, i) => {
      if (!rule.headings.includes(h)) ctx.addIssue({ code: 'custom', path: ['ambiguous', i], message: `"${h}" is not one of the rule's headings` });
    });
  });

export const sectionRulesSchema = z
  .strictObject({
    version: z.literal(1),
    provenance: z.string().trim().min(1, 'must not be blank'),
    sections: z.array(ruleSchema).min(1, 'needs at least 1 section rule'),
  })
  .superRefine((file, ctx) => {
    // One heading under two kinds would make the section kind depend on rule order.
    const kinds = new Set<string>();
    const owner = new Map<string, string>();
    file.sections.forEach((rule, i) => {
      if (kinds.has(rule.kind)) ctx.addIssue({ code: 'custom', path: ['sections', i, 'kind'], message: `duplicate kind "${rule.kind}"` });
      kinds.add(rule.kind);
      rule.headings.forEach((h, j) => {
        const first = owner.get(normalizeHeading(h));
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['sections', i, 'headings', j], message: `duplicate heading "${h}" (also under ${first})` });
        else owner.set(normalizeHeading(h), rule.kind);
      });
    });
  });

export type SectionRules = z.infer<typeof sectionRulesSchema>;
export type SectionRule = SectionRules['sections'][number];

/** The rule's role, its default filled in. */
export const roleOf = (rule: Pick<SectionRule, 'role' | 'statesDiagnosis'>): SectionRole => rule.role ?? (rule.statesDiagnosis ? 'conclusion' : 'presentation');

/** Validates already-parsed JSON; the error names the first offending field as a dotted path. */
export function parseSectionRules(raw: unknown, path: string): Result<SectionRules, LexiconError> {
  return parseRulesFile(sectionRulesSchema, raw, path, 'section rules');
}

/** Reads and validates a section rules file. */
export async function loadSectionRules(path: string = defaultSectionRulesPath()): Promise<Result<SectionRules, LexiconError>> {
  return loadRulesFile(sectionRulesSchema, path, 'section rules');
}

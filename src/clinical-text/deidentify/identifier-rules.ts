/**
 * The identifier rules file (issue 24): cue-word lists, regex fragments and patterns that find
 * the HIPAA Safe Harbor identifiers in a note. The rules are data handed to `scrubIdentifiers`;
 * the loader compiles every pattern once so a bad regex or an unknown {name} is reported with
 * the field that holds it, at load time, not as a note that silently keeps its identifiers.
 */
import { loadRulesFile, parseRulesFile } from '../rules-file.js';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LexiconError } from '../../errors.js';
import type { Result } from '../../result.js';
import { compilePattern } from './compile-patterns.js';

/** FACILITY: hospitals, clinics, practices and departments named with a place; LOCATION: cities and towns; AGE: ages over 89 (kept as 90+). */
export const IDENTIFIER_KINDS = ['NAME', 'DATE', 'MRN', 'PHONE', 'ADDRESS', 'EMAIL', 'ID', 'URL', 'FACILITY', 'LOCATION', 'AGE'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** The rules shipped next to this file (resolved from it, so it works from any cwd). */
export function defaultIdentifierRulesPath(): string {
  return fileURLToPath(new URL('./identifier-rules.json', import.meta.url));
}

const phrase = z.string().trim().min(1, 'must not be blank');
const lowerWord = phrase.refine((s) => s === s.toLowerCase(), 'must be lower case (compared case-insensitively)');
const macroName = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'names are letters and digits');

const listSchema = z.strictObject({
  /** Case-insensitive lists also match "MRN" / "Mrn" inside case-sensitive patterns (names must stay capitalised there). */
  caseInsensitive: z.boolean(),
  items: z.array(phrase).min(1, 'needs at least 1 item'),
});

const patternSchema = z.strictObject({
  kind: z.enum(IDENTIFIER_KINDS),
  caseInsensitive: z.boolean(),
  /** For NAME: the cue is weak (a relative noun), so a candidate starting with an eponym ("Alzheimer's") stays. */
  weakCue: z.boolean().optional(),
  /** What the identifier is replaced by; by default its kind in brackets ("[NAME]"). Ages over 89 become "90+". */
  replacement: z.string().optional(),
  /** Why the pattern exists and what it must not match; for the reader only. */
  note: phrase,
  regex: phrase,
});

export const identifierRulesSchema = z
  .strictObject({
    version: z.literal(1),
    provenance: phrase,
    lists: z.record(macroName, listSchema),
    fragments: z.record(macroName, phrase),
    patterns: z.array(patternSchema).min(1, 'needs at least 1 pattern'),
    names: z.strictObject({
      /** Capitalised words that end a name after a cue ("Pt: Pleasant 45M", "Patient: Male"). */
      notNames: z.array(lowerWord),
      /** Eponyms in clinical use: not a name after a weak cue. */
      eponyms: z.array(lowerWord),
      /** A capitalised word followed by one of these is a clinical term ("Murphy's sign", "Baker's cyst"), never a name. */
      clinicalNouns: z.array(lowerWord).min(1, 'needs at least 1 noun'),
    }),
    places: z.strictObject({
      /** Words a facility or department is named by that name no place ("Community Hospital", "Cardiology Clinic"): such a name alone stays. */
      generic: z.array(lowerWord),
      /** Countries, regions and states: what a place cue may name and keep (travel history is clinical; Safe Harbor keeps states). */
      keep: z.array(lowerWord),
    }),
  })
  .superRefine((file, ctx) => {
    for (const name of Object.keys(file.fragments)) {
      if (name in file.lists) ctx.addIssue({ code: 'custom', path: ['fragments', name], message: `"${name}" is also a list name` });
    }
    file.patterns.forEach((p, i) => {
      const compiled = compilePattern(p, file);
      if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['patterns', i, 'regex'], message: compiled.error });
    });
  });

export type IdentifierRules = z.infer<typeof identifierRulesSchema>;
export type IdentifierPattern = IdentifierRules['patterns'][number];

/** Validates already-parsed JSON; the error names the first offending field as a dotted path. */
export function parseIdentifierRules(raw: unknown, path: string): Result<IdentifierRules, LexiconError> {
  return parseRulesFile(identifierRulesSchema, raw, path, 'identifier rules');
}

/** Reads and validates a identifier rules file. */
export async function loadIdentifierRules(path: string = defaultIdentifierRulesPath()): Promise<Result<IdentifierRules, LexiconError>> {
  return loadRulesFile(identifierRulesSchema, path, 'identifier rules');
}

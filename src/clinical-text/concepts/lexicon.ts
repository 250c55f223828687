/**
 * The concept lexicon file (issue 17): schema, loader and a coverage check against the source's
 * question dictionary. The shipped DDXPlus lexicon lives in datasets/lexicon/; the concept matcher
 * looks surface forms up in it, so the loader rejects anything it could not look up reliably
 * (upper-case forms, blank phrases, duplicates) instead of letting the matcher miss silently.
 */
import { loadRulesFile, parseRulesFile } from '../rules-file.js';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LexiconError } from '../../errors.js';
import type { Result } from '../../result.js';
import type { ConceptLexicon } from './types.js';

/** Where the reviewed DDXPlus lexicon ships (resolved from this file, so it works from any cwd). */
export function defaultDdxplusLexiconPath(): string {
  return fileURLToPath(new URL('../../../datasets/lexicon/ddxplus-lexicon.json', import.meta.url));
}

/** Abbreviations are matched case-sensitively, so they must look like one: a short token with a capital. */
const ABBREVIATION = /^(?=.*[A-Z])[A-Za-z0-9/&+.'-]{1,8}$/;

const phrase = z.string().trim().min(1, 'must not be blank');
/** Forms are matched against lower-cased text; an upper-case form could never match. */
const form = phrase.refine((s) => s === s.toLowerCase(), 'must be lower case (put case-sensitive short forms in abbreviations)');
const abbreviation = z.string().regex(ABBREVIATION, 'must be a short case-sensitive token (1-8 characters, no spaces, at least one capital)');

function uniqueList<T extends z.ZodType<string>>(item: T, minLength: number) {
  return z
    .array(item)
    .min(minLength, minLength > 0 ? `needs at least ${minLength} entry` : undefined)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((s, i) => {
        if (seen.has(s)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate "${s}"` });
        seen.add(s);
      });
    });
}

const valueSchema = z.strictObject({ canonical: phrase, forms: uniqueList(form, 1) });
const siteSchema = z.strictObject({ canonical: phrase, forms: uniqueList(form, 1), side: z.enum(['R', 'L']).nullable() });

const evidenceSchema = z
  .strictObject({
    canonical: phrase,
    forms: uniqueList(form, 1),
    abbreviations: uniqueList(abbreviation, 0),
    absentForms: uniqueList(form, 0),
    treatmentForms: uniqueList(form, 0).optional(),
    datedForms: z.strictObject({ withinDays: z.number().int().positive(), forms: uniqueList(form, 1) }).optional(),
    context: z.enum(['patient', 'family', 'history', 'exposure']),
    triggers: uniqueList(form, 0),
    valueSet: z.literal('sites').nullable(),
    // A 0-10 question's values are its numbers: words that say one ("sudden onset": 7-10 of "how fast did the pain appear").
    values: z.record(z.string().regex(/^(?:V_\d+|\d+)$/, 'value keys are DDXPlus value codes (V_n), or numbers of a scale question'), valueSchema),
    scale: z.strictObject({ min: z.number().int(), max: z.number().int() }).refine((s) => s.min < s.max, 'min must be below max').nullable(),
  })
  .superRefine((ev, ctx) => {
    // A site question without triggers could never be selected by the matcher.
    if (ev.valueSet === 'sites' && ev.triggers.length === 0) ctx.addIssue({ code: 'custom', path: ['triggers'], message: 'a site question needs triggers' });
    for (const key of Object.keys(ev.values)) {
      if (!/^\d+$/.test(key)) continue;
      const v = Number(key);
      if (!ev.scale || v < ev.scale.min || v > ev.scale.max) ctx.addIssue({ code: 'custom', path: ['values', key], message: ev.scale ? `a scale value must be within ${ev.scale.min}-${ev.scale.max}` : 'numeric value keys need a scale' });
    }
  });

export const lexiconSchema = z.strictObject({
  version: z.literal(1),
  provenance: phrase,
  sites: z.record(z.string().regex(/^V_\d+$/, 'site keys are DDXPlus value codes (V_n)'), siteSchema),
  evidences: z.record(z.string().regex(/^E_\d+$/, 'evidence keys are DDXPlus evidence codes (E_n)'), evidenceSchema),
});

export type Lexicon = z.infer<typeof lexiconSchema>;
// Compile-time guarantee that the validated file is what the concept layer's types describe.
const _sameShape: (l: Lexicon) => ConceptLexicon = (l) => l;
void _sameShape;

/** Validates already-parsed JSON; the error names the first offending field as a dotted path. */
export function parseLexicon(raw: unknown, path: string): Result<Lexicon, LexiconError> {
  return parseRulesFile(lexiconSchema, raw, path, 'lexicon');
}

/** Reads and validates a lexicon file. */
export async function loadLexicon(path: string): Promise<Result<Lexicon, LexiconError>> {
  return loadRulesFile(lexiconSchema, path, 'lexicon');
}

/** The fields of a release_evidences.json entry the coverage check reads. */
export interface EvidenceDefinition {
  data_type: 'B' | 'C' | 'M';
  'possible-values': ReadonlyArray<string | number>;
}

export interface CoverageGap {
  evidence: string;
  /** The uncovered value code or number; null when the evidence itself has no entry. */
  value: string | number | null;
  reason: string;
}

/** Values of one categorical or numeric evidence that the entry does not cover. */
function valueGaps(code: string, def: EvidenceDefinition, entry: Lexicon['evidences'][string], lexicon: Lexicon): CoverageGap[] {
  const gaps: CoverageGap[] = [];
  for (const value of def['possible-values']) {
    if (typeof value === 'number') {
      if (entry.scale === null) gaps.push({ evidence: code, value, reason: 'numeric value but the entry has no scale' });
      else if (value < entry.scale.min || value > entry.scale.max) gaps.push({ evidence: code, value, reason: `outside scale ${entry.scale.min}-${entry.scale.max}` });
    } else if (entry.valueSet === 'sites') {
      if (lexicon.sites[value] === undefined) gaps.push({ evidence: code, value, reason: 'site value missing from sites' });
    } else if (entry.values[value] === undefined) {
      gaps.push({ evidence: code, value, reason: 'value missing from values' });
    }
  }
  return gaps;
}

/**
 * Evidences and values of a source dictionary that the lexicon does not cover: an evidence with no
 * entry, a categorical value with no entry (in `values`, or in `sites` for site questions), a numeric
 * value outside the entry's scale. Empty when the lexicon covers everything.
 */
export function lexiconCoverage(lexicon: Lexicon, evidences: Readonly<Record<string, EvidenceDefinition>>): CoverageGap[] {
  const gaps: CoverageGap[] = [];
  for (const [code, def] of Object.entries(evidences)) {
    const entry = lexicon.evidences[code];
    if (entry === undefined) {
      gaps.push({ evidence: code, value: null, reason: 'no lexicon entry' });
      continue;
    }
    if (def.data_type !== 'B') gaps.push(...valueGaps(code, def, entry, lexicon));
  }
  return gaps;
}

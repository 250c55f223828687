/**
 * Forms clinicians chart that HPO names only by its ontology label ("JVD", "ST depression",
 * "cavitary lesion", "bulging TM"): data (phenotype-forms.json), added to the loaded terms' forms so
 * a note's wording reaches the phenotype, and a longer phrase is not read as the shorter word inside
 * it (src/clinical-text/concepts/not-this-concept.ts). The release file itself is never altered.
 */
import { z } from 'zod';
import shipped from './phenotype-forms.json' with { type: 'json' };
import type { Vocabulary } from '../clinical-text/vocabulary.js';

const fileSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().trim().min(1),
  forms: z.record(z.string().regex(/^HP:\d{7}$/), z.array(z.string().min(1).refine((s) => s === s.toLowerCase(), 'lower case')).min(1)),
});

const parsed = fileSchema.parse(shipped);

/** The vocabulary with the shipped clinical forms added to the terms they name (terms it lacks are skipped); a new object. */
export function withClinicalForms(vocabulary: Vocabulary, forms: Readonly<Record<string, readonly string[]>> = parsed.forms): Vocabulary {
  return {
    ...vocabulary,
    concepts: vocabulary.concepts.map((c) => {
      const extra = forms[c.code];
      if (!extra) return c;
      const had = new Set(c.forms.map((f) => f.toLowerCase()));
      return { ...c, forms: [...c.forms, ...extra.filter((f) => !had.has(f))] };
    }),
  };
}

/**
 * Conditions a medication list implies (issue 47): a clinician reading "MEDICATIONS: Metformin
 * 500 mg b.i.d., Keppra 750 mg b.i.d." knows the patient has diabetes and a seizure disorder,
 * though no line says so. Each drug of a medication section that the reviewed table names
 * (medication-conditions.json: drug -> the one chronic condition its usual indication names)
 * becomes a finding of treatment history: the condition, present, historical, cued by the drug,
 * placed in the medication section (so a findings cap keeps it last, and it never becomes an
 * emergent concept). The drug itself stays what it was: no present finding. Allergy lists are
 * never read ("allergic to penicillin" says nothing of an infection).
 *
 * Not hooked into decompose.ts by default: on the real-notes folds (docs/notes.md, issue 47) it
 * moved the KG's naive Bayes by a case or two either way and the whole path's top-3 down 1-3
 * points, so it is a measured step waiting for a corpus where it helps, not a default.
 */
import { z } from 'zod';
import shipped from './medication-conditions.json' with { type: 'json' };
import type { InputFinding } from '../findings.js';
import type { Section } from '../sections/detect-sections.js';
import { parseRulesFile } from '../rules-file.js';
import { LexiconError } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';

const SHIPPED_PATH = 'src/clinical-text/medications/medication-conditions.json';

const fileSchema = z.strictObject({
  version: z.literal(1),
  provenance: z.string().trim().min(1),
  conditions: z.array(z.strictObject({ condition: z.string().trim().min(1), drugs: z.array(z.string().trim().min(2)).min(1) })).min(1),
});
export type MedicationConditions = z.infer<typeof fileSchema>;

/** The section kinds whose body is a medication list. */
const MEDICATION_KINDS = new Set(['meds']);

export interface CompiledMedications {
  /** Any listed drug as a whole word, longest first (so "insulin glargine" wins over "insulin"). */
  pattern: RegExp;
  conditionOf: ReadonlyMap<string, string>;
}

/** Lower case, a hyphen as a space: "Fluticasone-salmeterol" and "fluticasone salmeterol" alike. */
const drugKey = (s: string) => s.toLowerCase().replace(/-/g, ' ');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileMedications(raw: unknown, path = SHIPPED_PATH): Result<CompiledMedications, LexiconError> {
  const parsed = parseRulesFile(fileSchema, raw, path, 'medication conditions');
  if (!parsed.ok) return parsed;
  const file = parsed.value;
  const conditionOf = new Map<string, string>();
  for (const c of file.conditions) {
    for (const d of c.drugs) {
      const key = drugKey(d);
      const had = conditionOf.get(key);
      // One drug, one condition: a table that says two is ambiguous, and a bug of the table.
      if (had !== undefined && had !== c.condition) return err(new LexiconError(path, 'conditions', `medication conditions ${path}: ${d} names both ${had} and ${c.condition}`));
      conditionOf.set(key, c.condition);
    }
  }
  const words = [...conditionOf.keys()].sort((a, b) => b.length - a.length).map((d) => escape(d).replace(/[ -]/g, '[ -]'));
  return ok({ pattern: new RegExp(`(?<![a-z0-9])(?:${words.join('|')})(?![a-z0-9])`, 'gi'), conditionOf });
}

let compiledShipped: CompiledMedications | null = null;
/** The shipped table, validated at first use; a broken shipped file is a release bug, so it throws. */
export function shippedMedications(): CompiledMedications {
  if (compiledShipped) return compiledShipped;
  const r = compileMedications(shipped);
  if (!r.ok) throw r.error;
  return (compiledShipped = r.value);
}

/**
 * The conditions the medication sections of a note imply, one finding per condition (the first
 * drug that implies it is its cue and place). `text` is the note as the sections were detected in.
 */
export function impliedConditions(text: string, sections: readonly Section[], meds: CompiledMedications = shippedMedications()): { at: number; finding: InputFinding }[] {
  const seen = new Set<string>();
  const out: { at: number; finding: InputFinding }[] = [];
  for (const s of sections) {
    if (s.kind === null || !MEDICATION_KINDS.has(s.kind)) continue;
    const body = text.slice(s.start, s.end);
    for (const m of body.matchAll(meds.pattern)) {
      const condition = meds.conditionOf.get(drugKey(m[0]));
      if (condition === undefined || seen.has(condition)) continue;
      seen.add(condition);
      const at = s.start + m.index;
      out.push({ at, finding: { text: condition, polarity: 'present', code: null, valueCode: null, assertion: 'present', temporality: 'historical', cue: `on ${m[0]}`, section: s.kind } });
    }
  }
  return out;
}

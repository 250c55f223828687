import type { Finding } from '../../domain/record.js';
import { RULE_BY_LOINC, unitFactor } from '../analysis/measurements.js';
import { labPhenotype } from './interpret.js';
import type { Sex } from './reference-ranges.js';

/**
 * A coded lab (a FHIR Observation, an OMOP measurement row) as the phenotype it shows, beside its
 * per-code bin (src/sources/binning/bins.ts, which stays): "LOINC 718-7 = 7.9 g/dL, flagged L" is
 * the HPO feature Anemia (HP:0001903), the very feature "Hgb 7.9" in a note is read as, so coded
 * and written records of a disease meet on one node. The finding is keyed by its HPO code
 * (kg-build/feature-key.ts), as the phenotype vocabulary's concept is.
 */
export interface CodedLab {
  /** Any LOINC code of a known analyte (RULE_BY_LOINC). */
  loinc: string;
  value: number;
  unit: string | null;
  range: { low: number | null; high: number | null } | null;
  /** HL7 v3 ObservationInterpretation code (FHIR); null for OMOP rows. */
  interpretation: string | null;
  sex: Sex | null;
}

export const HPO_VOCABULARY = 'HPO';

/** The HPO phenotype finding of a coded lab; null when the code is no known analyte, or the value normal or unreadable. */
export function codedLabPhenotype(lab: CodedLab): Finding | null {
  const rule = RULE_BY_LOINC.get(lab.loinc);
  if (!rule) return null;
  // The value in the rule's base unit, for the adult table; a unit the rule cannot convert leaves only the flag and range.
  const factor = lab.unit === null || lab.unit === '' ? null : unitFactor(rule, lab.unit);
  const inBase = factor === null ? null : lab.value * factor;
  const [lo, hi] = rule.plausible;
  const value = inBase !== null && inBase >= lo && inBase <= hi ? inBase : null;
  const p = labPhenotype({ loinc: rule.loinc, value, rawValue: lab.value, range: lab.range, flag: lab.interpretation, sex: lab.sex });
  if (p === null) return null;
  return {
    text: p.finding, polarity: 'present', code: p.hpo, valueCode: null, question: null, valueText: null,
    antecedent: false, answerType: 'yes-no', concept: { vocabulary: HPO_VOCABULARY, forms: [p.finding] },
  };
}

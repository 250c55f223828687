import { directionOf, labReference, phenotypeOf, type Direction, type LabPhenotype, type Sex } from './reference-ranges.js';

/**
 * One rule for every way a lab reaches the KG: a value written in a note, a FHIR Observation
 * (its interpretation code, else its value against its referenceRange) and an OMOP measurement
 * (against range_low / range_high) give the same low / normal / high, hence the same HPO
 * phenotype feature. The laboratory's own judgement comes first (its flag, then its range), the
 * adult table (reference-ranges.json) last: reference intervals differ by laboratory and method.
 */
export interface LabEvidence {
  /** The reading rule's LOINC code (analysis/measurements.ts RULE_BY_LOINC gives it from any of the analyte's codes). */
  loinc: string;
  /** The value in the rule's base unit; null when only a flag is known. */
  value: number | null;
  /** The laboratory's flag: HL7 v3 ObservationInterpretation code or 'high' / 'low' as written. */
  flag: string | null;
  /** The laboratory's reference range, in the same unit as `rawValue`. */
  range: { low: number | null; high: number | null } | null;
  /** The value as the laboratory reported it (in the range's unit). */
  rawValue: number | null;
  sex: Sex | null;
}

/** HL7 v3 ObservationInterpretation codes and written flags onto a direction (critical and "significantly" codes fold in); null: no direction (A, abnormal). */
const FLAGS: Readonly<Record<string, Direction>> = {
  L: 'low', LL: 'low', LU: 'low', '<': 'low', LOW: 'low',
  N: 'normal', NORMAL: 'normal',
  H: 'high', HH: 'high', HU: 'high', '>': 'high', HIGH: 'high',
};

export const flagDirection = (flag: string): Direction | null => FLAGS[flag.trim().toUpperCase()] ?? null;

/** Low / normal / high, by the laboratory's flag, then its range, then the adult table; null when nothing says. */
export function labDirection(e: LabEvidence): Direction | null {
  const byFlag = e.flag === null ? null : flagDirection(e.flag);
  if (byFlag !== null) return byFlag;
  if (e.range && e.rawValue !== null && (e.range.low !== null || e.range.high !== null)) {
    if (e.range.low !== null && e.rawValue < e.range.low) return 'low';
    if (e.range.high !== null && e.rawValue > e.range.high) return 'high';
    return 'normal';
  }
  const lab = labReference(e.loinc);
  return lab && e.value !== null ? directionOf(lab, e.value, e.sex) : null;
}

/** The phenotype the evidence shows, with the direction it was read as; null when normal, unknown or unnamed. */
export function labPhenotype(e: LabEvidence): (LabPhenotype & { direction: Direction }) | null {
  const lab = labReference(e.loinc);
  const direction = labDirection(e);
  if (!lab || direction === null) return null;
  const p = phenotypeOf(lab, direction);
  return p === null ? null : { ...p, direction };
}

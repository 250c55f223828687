import type { InputFinding } from '../clinical-text/findings.js';
import { codedMeasurementFinding } from '../clinical-text/analysis/measurements.js';
import { InputError } from '../errors.js';
import { loincOf, type FindingIn } from './schemas.js';

/**
 * A validated request finding as the query takes it. One with a `value` (a LOINC code's measured
 * value, as an EHR client sends vitals and labs) is read as the same value written in text: the
 * KG's bins of that code, else the phenotype it shows (src/clinical-text/concepts/match-measured.ts).
 */
export function toInputFinding(f: FindingIn, at: string): InputFinding {
  if (f.value === undefined) return { text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode };
  const read = codedMeasurementFinding(loincOf(f.code) ?? '', f.value, f.unit ?? null);
  // The schema refused what cannot be read; this is a guard, not a path.
  if (!read.ok) throw new InputError(`${at}.${read.error.part}: ${read.error.reason}`, { field: `${at}.${read.error.part}` });
  return { text: read.value.text, polarity: 'present', code: null, valueCode: null, measured: read.value.measured };
}

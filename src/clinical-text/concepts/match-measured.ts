import type { InputFinding } from '../findings.js';
import { findingOf, RULE_BY_LOINC, unitFactor, type MeasurementRule } from '../analysis/measurements.js';
import { tertileBounds, type TertileBounds } from '../../sources/binning/bins.js';
import type { ConceptSet } from './concept-set.js';
import type { ConceptMatch } from './resolve-features.js';

/**
 * A value written in text ("HR 118", "SpO2 86% RA") read as the coded measurement a source of the
 * build recorded: an OMOP measurement row or a FHIR Observation of the same LOINC analyte, which
 * the build binned (src/sources/binning/bins.ts) into low / normal / high by its reference range
 * or into thirds of the code's values. The query's value falls in a bin by the same rule:
 * - thirds: by the cut points the bins' labels state, the value converted into the unit the
 *   records used (the rule's units); a unit the rule cannot convert says nothing;
 * - reference-range bins: high or low as the finding read says (beyond the rule's limits, or
 *   flagged or outside a range the text wrote: analysis/lab-marks.ts). A value inside the adult
 *   reference interval (labs/reference-ranges.json) is not claimed normal: the records' own
 *   ranges are not known at query time.
 * Coded features come first (tiers.ts): a value a coded source measured is that source's feature,
 * never also the phenotype the text layer names it by.
 */
interface BinnedFeature {
  feature: number;
  valueCode: string;
  thirds: TertileBounds | null;
}

const cache = new WeakMap<ConceptSet, Map<string, BinnedFeature[]>>();

/** LOINC code → the set's binned features of it (code "LOINC:<code>", a bin value code). */
function binnedByLoinc(set: ConceptSet): Map<string, BinnedFeature[]> {
  const hit = cache.get(set);
  if (hit) return hit;
  const out = new Map<string, BinnedFeature[]>();
  set.features.forEach((f, feature) => {
    if (!f.code?.startsWith('LOINC:') || f.valueCode === null || !BIN_CODES.has(f.valueCode)) return;
    const thirds = f.valueCode.startsWith('T') ? tertileBounds(f.valueText ?? '') : null;
    if (f.valueCode.startsWith('T') && thirds === null) return; // a label we did not write: no cut points to read
    const code = f.code.slice('LOINC:'.length);
    const list = out.get(code) ?? [];
    list.push({ feature, valueCode: f.valueCode, thirds });
    out.set(code, list);
  });
  cache.set(set, out);
  return out;
}

const BIN_CODES: ReadonlySet<string> = new Set(['L', 'N', 'H', 'T1', 'T2', 'T3']);

/** The value (in the rule's base unit) in the unit a bin label states; null when the label states none the rule knows. */
function inUnit(value: number, rule: MeasurementRule, unit: string | null): number | null {
  const factor = unit === null ? null : unitFactor(rule, unit);
  return factor === null ? null : value / factor;
}

function binOf(bins: readonly BinnedFeature[], rule: MeasurementRule, value: number, direction: 'H' | 'L' | null): BinnedFeature | null {
  for (const b of bins) {
    if (b.thirds === null) continue;
    const v = inUnit(value, rule, b.thirds.unit);
    if (v !== null && (b.thirds.low === null || v > b.thirds.low) && (b.thirds.high === null || v <= b.thirds.high)) return b;
  }
  return bins.find((b) => b.thirds === null && b.valueCode === direction) ?? null;
}

/** The coded bin a measured finding falls in, for each LOINC code of its analyte the set has bins of. */
export function matchMeasured(set: ConceptSet, finding: InputFinding): ConceptMatch[] {
  const m = finding.measured;
  const rule = m ? RULE_BY_LOINC.get(m.loinc) : undefined;
  if (!m || !rule || finding.polarity !== 'present') return [];
  const byLoinc = binnedByLoinc(set);
  const out: ConceptMatch[] = [];
  // The finding the analysis read says the direction: the rule's limits, or the laboratory's flag or range (lab-marks.ts).
  const direction = finding.text === findingOf(rule, 'high') ? 'H' : finding.text === findingOf(rule, 'low') ? 'L' : null;
  for (const code of [rule.loinc, ...(rule.alsoLoinc ?? [])]) {
    const bin = binOf(byLoinc.get(code) ?? [], rule, m.value, direction);
    if (!bin) continue;
    const node = set.features[bin.feature]!;
    out.push({ feature: bin.feature, similarity: 1, polarity: 'present', alternatives: `measured:${code}`, via: `measured ${m.analyte} ${m.value} ${m.unit}: LOINC ${code} "${node.valueText}"` });
  }
  return out;
}

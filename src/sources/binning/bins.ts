/**
 * Numeric lab and vital values become a few ordinal bins per code, never one feature per
 * distinct value (a KG with a node per temperature reading matches nothing at query time).
 *
 * Two rules, in this order:
 * - the row's own reference range (OMOP range_low/range_high, FHIR referenceRange): low /
 *   normal / high, coded with the HL7 v3 ObservationInterpretation codes L / N / H so a FHIR
 *   interpretation maps onto the same bins;
 * - otherwise tertiles of the code's values over the whole source (computed in a first
 *   pass): T1 / T2 / T3, labelled with their cut points.
 */
export type RangeBinCode = 'L' | 'N' | 'H';
export type TertileBinCode = 'T1' | 'T2' | 'T3';

export interface NumericBin {
  /** Feature value code: L / N / H (reference range) or T1 / T2 / T3 (tertiles). */
  code: RangeBinCode | TertileBinCode;
  /** Human label, e.g. "high" or "highest third (> 38.2 Cel)". */
  label: string;
  rule: 'reference-range' | 'interpretation' | 'tertiles';
}

export interface ReferenceRange {
  low: number | null;
  high: number | null;
}

const RANGE_LABEL: Readonly<Record<RangeBinCode, string>> = { L: 'low', N: 'normal', H: 'high' };

/** Bin by the row's reference range; null when the row has neither bound. */
export function binByRange(value: number, range: ReferenceRange): NumericBin | null {
  if (range.low === null && range.high === null) return null;
  const code: RangeBinCode = range.low !== null && value < range.low ? 'L' : range.high !== null && value > range.high ? 'H' : 'N';
  return { code, label: RANGE_LABEL[code], rule: 'reference-range' };
}

/**
 * HL7 v3 ObservationInterpretation codes (FHIR Observation.interpretation) onto the same
 * three bins: critical and "significantly" codes fold into low / high. Others (e.g. A,
 * abnormal, without a direction) give null: the caller falls back to the tertiles.
 */
const INTERPRETATION: Readonly<Record<string, RangeBinCode>> = { L: 'L', LL: 'L', LU: 'L', '<': 'L', N: 'N', H: 'H', HH: 'H', HU: 'H', '>': 'H' };

export function binByInterpretation(code: string): NumericBin | null {
  const bin = INTERPRETATION[code.toUpperCase()];
  return bin === undefined ? null : { code: bin, label: RANGE_LABEL[bin], rule: 'interpretation' };
}

/** The two tertile cut points of one code's values (c1 <= c2). */
export interface Tertiles {
  c1: number;
  c2: number;
}

/** Compact number for a label: at most 4 significant digits, no trailing zeros. */
const fmt = (n: number): string => String(Number(n.toPrecision(4)));

export function binByTertiles(value: number, t: Tertiles, unit: string | null): NumericBin {
  const u = unit === null || unit === '' ? '' : ` ${unit}`;
  if (value <= t.c1) return { code: 'T1', label: `lowest third (<= ${fmt(t.c1)}${u})`, rule: 'tertiles' };
  if (value <= t.c2) return { code: 'T2', label: `middle third (${fmt(t.c1)}-${fmt(t.c2)}${u})`, rule: 'tertiles' };
  return { code: 'T3', label: `highest third (> ${fmt(t.c2)}${u})`, rule: 'tertiles' };
}

/** A tertile bin's bounds, read back from its label: a value v is in the bin when low < v <= high (null: unbounded). */
export interface TertileBounds {
  code: TertileBinCode;
  low: number | null;
  high: number | null;
  /** The unit the label states (the source's unit of the code's values); null when none was written. */
  unit: string | null;
}

const NUM = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)`;
const TERTILE_LABELS: readonly [TertileBinCode, RegExp][] = [
  ['T1', new RegExp(String.raw`^lowest third \(<= ${NUM}(?: (.+))?\)$`)],
  ['T2', new RegExp(String.raw`^middle third \(${NUM}-${NUM}(?: (.+))?\)$`)],
  ['T3', new RegExp(String.raw`^highest third \(> ${NUM}(?: (.+))?\)$`)],
];

/**
 * The inverse of binByTertiles' labels. A KG keeps each bin's label as its feature's value text;
 * reading the cut points back lets a value written at query time ("HR 118") fall in the bin its
 * records' values did, by the same cut points (src/clinical-text/concepts/match-measured.ts).
 * Null for any other label.
 */
export function tertileBounds(label: string): TertileBounds | null {
  for (const [code, re] of TERTILE_LABELS) {
    const m = re.exec(label);
    if (!m) continue;
    if (code === 'T1') return { code, low: null, high: Number(m[1]), unit: m[2] ?? null };
    if (code === 'T2') return { code, low: Number(m[1]), high: Number(m[2]), unit: m[3] ?? null };
    return { code, low: Number(m[1]), high: null, unit: m[2] ?? null };
  }
  return null;
}

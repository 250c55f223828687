import { z } from 'zod';
import rules from './measurement-rules.json' with { type: 'json' };
import type { MeasuredValue, Span, TextFinding } from './types.js';
import { labMarks, type LabMarks } from './lab-marks.js';
import { directionOf, labReference, phenotypeOf, type Direction, type Sex } from '../labs/reference-ranges.js';
import { err, ok, type Result } from '../../result.js';

/**
 * Measured vital signs and lab results ("HR 118", "SpO2 88% RA", "glucose 2.1 mmol/L", "Na 128"),
 * read as the abnormal finding they show ("Tachycardia", "Hypoxemia", "Hypoglycemia",
 * "Hyponatremia"): a note's numbers say what its words often do not, and a bag of words cannot
 * tell 2.1 from 21. How a value is written is data (`measurement-rules.json`: names, units,
 * plausible values); what it means is the lab table's (../labs/reference-ranges.json: adult
 * reference interval, the HPO phenotype of a low or high value), after the laboratory's own flag
 * or range. A value inside the interval, an implausible one or one with a unit the rule does not
 * know names no abnormality. Deterministic, no I/O, nothing logged.
 */
const Rule = z.object({
  analyte: z.string().min(1),
  loinc: z.string().regex(/^\d+-\d$/),
  /** The analyte's other LOINC codes (by specimen or method): a coded source may record it under any. */
  alsoLoinc: z.array(z.string().regex(/^\d+-\d$/)).optional(),
  base: z.string().min(1),
  names: z.array(z.string().min(1)).min(1),
  units: z.record(z.string(), z.number().positive()),
  plausible: z.tuple([z.number(), z.number()]),
  minAge: z.number().optional(),
  /** "first": the value is the first of a pair ("BP 82/50": systolic); "gas": the pH of a blood gas written pH/pCO2/pO2 ("ABG 7.21/68/55"). */
  pair: z.enum(['first', 'gas']).optional(),
  /** The unit a bare number written with a decimal point is in, before plausibility ("bilirubin 4.1" is mg/dL, "bilirubin 41" µmol/L). */
  decimalUnit: z.string().optional(),
});
export type MeasurementRule = z.infer<typeof Rule>;

/** A measurement read from the text (value in the rule's base unit) and where it was written. */
export interface Measurement extends MeasuredValue {
  span: Span;
  /** The abnormal finding, or null when the value is within the limits. */
  finding: string | null;
}

// Validated once at load: a malformed rules file is a programming error, not a silent no-op.
export const MEASUREMENT_RULES: readonly MeasurementRule[] = z.array(Rule).parse(rules.rules);
for (const r of MEASUREMENT_RULES) {
  const lab = labReference(r.loinc);
  if (!lab || lab.unit !== r.base) throw new Error(`measurement rule ${r.analyte}: no reference interval in ${r.base} for LOINC ${r.loinc} (labs/reference-ranges.json)`);
}

/** The finding a rule's analyte shows in a direction (its HPO phenotype's label or synonym); null when none. */
export function findingOf(rule: MeasurementRule, direction: Direction): string | null {
  return phenotypeOf(labReference(rule.loinc)!, direction)?.finding ?? null;
}

/** LOINC code (a rule's own, MeasuredValue.loinc, or one of its alsoLoinc) → the rule. */
export const RULE_BY_LOINC: ReadonlyMap<string, MeasurementRule> = new Map(MEASUREMENT_RULES.flatMap((r) => [r.loinc, ...(r.alsoLoinc ?? [])].map((c) => [c, r] as const)));

/** The factor from a unit as written (any case) to the rule's base unit; null when the rule does not know the unit. */
export function unitFactor(rule: MeasurementRule, unit: string): number | null {
  const u = unit.toLowerCase();
  return Object.entries(rule.units).find(([w]) => w.toLowerCase() === u)?.[1] ?? (u === rule.base.toLowerCase() ? 1 : null);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// A short or capitalised name is an abbreviation and matches as written ("K", "Cr", "HR"): "k" and "hr" are other words.
const caseSensitive = (name: string) => name.length < 4 || name !== name.toLowerCase();
// Between a name and its value: a verb, an approximation ("pulse ~120", "HR @132", "pulse about
// 110") or a pulse's rhythm ("pulse irregularly irregular ~130"). The rhythm stays in the text for
// the finding it is (vitals.ts masks only a name written right before its value).
const LINK = String.raw`\s*(?:(?:of|was|is|were|at|now|about|around|approx|approximately|irregularly|irregular|irreg|regular|thready|bounding|~|@|:|=|-)\s*)*`;

interface Compiled {
  rule: MeasurementRule;
  res: RegExp[];
  units: [string, number][];
}

const COMPILED: readonly Compiled[] = MEASUREMENT_RULES.map((rule) => {
  // Thousands may be grouped ("WBC 22,000", "Plt 450,000"); a decimal comma is not read.
  // A bound as printed ("TSH <0.01", "CRP >200") is the value; a range of numbers ("TSH in 6-8 wk") is none.
  const num = rule.pair === 'first' ? String.raw`(?<num>\d{2,3})\s*\/\s*\d{2,3}` : rule.pair === 'gas' ? String.raw`(?<num>\d\.\d{1,2})(?:\s*\/\s*\d{2,3}(?:\.\d)?){0,3}` : String.raw`(?:[<>≤≥]=?\s*)?(?<num>\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?)(?!\s*[-–]\s*\d)`;
  const bySensitivity = [rule.names.filter(caseSensitive), rule.names.filter((n) => !caseSensitive(n))];
  const res = bySensitivity
    .filter((names) => names.length > 0)
    .map((names, i) => new RegExp(String.raw`(?<![\w/])(?:${names.map(escape).join('|')})(?![\w])${LINK}${num}(?![\d.]*\d)`, `g${i === 1 || bySensitivity[0]!.length === 0 ? 'i' : ''}`));
  // Longest unit first, so "mg/dL" is not read as "mg".
  const units = Object.entries(rule.units).sort((a, b) => b[0].length - a[0].length);
  return { rule, res, units };
});

/** The unit written right after the number: its factor and end, undefined when none is written, null when one the rule does not know is. */
function unitAfter(text: string, at: number, units: readonly [string, number][]): { factor: number; end: number } | undefined | null {
  const rest = text.slice(at, at + 16);
  const spaced = /^\s*/.exec(rest)![0].length;
  for (const [unit, factor] of units) {
    const after = rest.slice(spaced, spaced + unit.length);
    if (after.toLowerCase() === unit.toLowerCase() && !/^[a-z]/i.test(rest.slice(spaced + unit.length))) return { factor, end: at + spaced + unit.length };
  }
  return UNIT_LIKE.test(rest) ? null : undefined;
}

/** A unit-like word after the number ("lac 3 cm", "K 5 mg"): a measurement of something else. */
const UNIT_LIKE = /^\s?(?:%|\/|[mµunpk]?(?:g|mol|eq|iu|u|l)(?:\/[a-z0-9^]+)?\b|(?:cm|mm|kg|ml|min|mins|h|hrs?|hours?|days?|d|wks?|weeks?|mo|months?|y|yrs?|years?|yo)\b)/i;

/**
 * A value in the rule's base unit and the finding it shows: `factor` converts the written unit
 * (undefined: none written, the first factor giving a plausible value is taken); null when implausible.
 */
function inBaseUnit(rule: MeasurementRule, raw: number, factor: number | undefined, opts: { marks?: Pick<LabMarks, 'flag' | 'range'>; sex?: Sex | null; decimal?: boolean } = {}): Omit<Measurement, 'span'> | null {
  const [lo, hi] = rule.plausible;
  const preferred = opts.decimal && rule.decimalUnit !== undefined ? unitFactor(rule, rule.decimalUnit) : null;
  const candidates = factor !== undefined ? [factor] : [...new Set([...(preferred !== null ? [preferred] : []), 1, ...Object.values(rule.units)])];
  const f = candidates.find((c) => raw * c >= lo && raw * c <= hi);
  if (f === undefined) return null;
  const value = raw * f;
  // The laboratory's flag or range first (lab-marks.ts), else the adult reference interval (labs/).
  const marks = opts.marks ?? NO_MARKS;
  const byLab = marks.flag ?? (marks.range ? (raw > marks.range[1] ? 'high' : raw < marks.range[0] ? 'low' : 'normal') : null);
  const direction: Direction = byLab ?? directionOf(labReference(rule.loinc)!, value, opts.sex ?? null);
  const finding = direction === 'normal' ? null : findingOf(rule, direction);
  // Flagged in a direction the table names no finding for (a high SpO2): nothing to say. Judged so
  // by the table alone (a systolic 190), the value still meets a KG's bins of it.
  if (byLab !== null && direction !== 'normal' && finding === null) return null;
  return { analyte: rule.analyte, loinc: rule.loinc, value, unit: rule.base, finding };
}
const NO_MARKS = { flag: null, range: null } as const;

/** A measurement as a finding's text and what was measured: the abnormal finding it shows, else its value ("heart rate 72 /min"). */
function asFinding(m: Omit<Measurement, 'span'>): { text: string; measured: MeasuredValue } {
  const value = Math.round(m.value * 1000) / 1000;
  return { text: m.finding ?? `${m.analyte} ${value} ${m.unit}`, measured: { analyte: m.analyte, loinc: m.loinc, value, unit: m.unit, ...(m.finding === null ? { withinLimits: true } : {}) } };
}

/** Why a coded value cannot be read as a measurement, and which of its parts is to blame. */
export interface CodedMeasurementProblem {
  part: 'code' | 'unit' | 'value';
  reason: string;
}

/**
 * A coded measurement (a FHIR Observation's or an API client's LOINC code, value and UCUM unit) as
 * the finding the same value written in text gives, so it meets the KG the way text does (binned
 * measurements, else the phenotype it shows). An error says which part no rule can read: a code
 * no rule knows, a unit the rule does not convert, an implausible value.
 */
export function codedMeasurementFinding(loinc: string, raw: number, unit: string | null): Result<{ text: string; measured: MeasuredValue }, CodedMeasurementProblem> {
  const rule = RULE_BY_LOINC.get(loinc);
  if (!rule) return err({ part: 'code', reason: `no measurement rule reads LOINC ${loinc} (the rules read ${RULE_BY_LOINC.size} codes: heart and breathing rates, SpO2, blood pressure, glucose, blood counts and chemistry; docs/http-api.md)` });
  const factor = unit === null || unit === '' ? undefined : unitFactor(rule, unit);
  if (factor === null) return err({ part: 'unit', reason: `"${unit}" is not a unit of ${rule.analyte} (${[...new Set([rule.base, ...Object.keys(rule.units)])].join(', ')})` });
  const m = inBaseUnit(rule, raw, factor);
  if (m === null) return err({ part: 'value', reason: `${raw}${unit ? ` ${unit}` : ''} is not a plausible ${rule.analyte} (${rule.plausible[0]}-${rule.plausible[1]} ${rule.base})` });
  return ok(asFinding(m));
}

export function readMeasurements(text: string, age: number | null, sex: Sex | null = null): Measurement[] {
  const out: (Measurement & { numberAt: number })[] = [];
  // Most lay descriptions hold no number: no rule needs scanning them.
  if (!/\d/.test(text)) return out;
  for (const { rule, res, units } of COMPILED) {
    if (rule.minAge !== undefined && age !== null && age < rule.minAge) continue;
    for (const re of res) {
      for (const m of text.matchAll(re)) {
        const raw = Number(m.groups!['num']!.replace(/,/g, ''));
        const end = m.index + m[0].length;
        // A flag may look like a unit ("Hb 9.5 L"): read after the number first, else after its unit.
        // Not after a blood pressure: "BP 150/90 L arm" is the arm it was taken on.
        const flagged = rule.pair !== undefined ? { flag: null, range: null, end } : labMarks(text, end);
        const unit = flagged.flag ? undefined : unitAfter(text, end, units);
        if (unit === null) continue;
        const marks = flagged.flag || rule.pair !== undefined ? flagged : labMarks(text, unit?.end ?? end);
        const read = inBaseUnit(rule, raw, unit?.factor, { marks, sex, decimal: m.groups!['num']!.includes('.') });
        if (read !== null) out.push({ ...read, span: { start: m.index, end: Math.max(end, marks.end) }, numberAt: end - m.groups!['num']!.length });
      }
    }
  }
  return mostSpecific(out).sort((a, b) => a.span.start - b.span.start);
}

/** One reading per number: "hs-troponin 45" is also "troponin 45", "pro-BNP" also "BNP"; the longer name (earlier start) is meant. */
function mostSpecific(all: (Measurement & { numberAt: number })[]): Measurement[] {
  const best = new Map<number, Measurement & { numberAt: number }>();
  for (const m of all) {
    const had = best.get(m.numberAt);
    if (!had || m.span.start < had.span.start) best.set(m.numberAt, m);
  }
  return [...best.values()].map(({ numberAt: _, ...m }) => m);
}

/**
 * The measurements as findings of the patient's, present now, in text order. An abnormal value is
 * the finding it shows, named by its HPO term (one per finding: "HR 118 ... HR 124" is one raised
 * heart rate). A value inside the limits names no abnormality: "heart rate 72 /min", marked
 * `withinLimits`, which no vocabulary reads, only a KG's binned measurements of the analyte
 * (one per analyte, the first written).
 */
export function measurementFindings(text: string, age: number | null, sex: Sex | null = null): TextFinding[] {
  const all = readMeasurements(text, age, sex);
  const abnormal = new Set(all.filter((m) => m.finding !== null).map((m) => m.analyte));
  const seen = new Set<string>();
  const out: TextFinding[] = [];
  for (const m of all) {
    // An analyte with an abnormal value is that finding; its values inside the limits add nothing.
    const key = m.finding ?? (abnormal.has(m.analyte) ? null : m.analyte);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...asFinding(m), span: m.span, clause: m.span, assertion: 'present', experiencer: 'patient', temporality: 'current', cue: null, values: {} });
  }
  return out;
}

import { z } from 'zod';
import table from './reference-ranges.json' with { type: 'json' };

/**
 * What a measured value means: low / normal / high against an adult reference interval, and the
 * HPO phenotype a low or high value shows ("Na 128" -> Hyponatremia HP:0002902). The intervals
 * are data (reference-ranges.json, each with its source); a laboratory's own range or flag, when
 * the note or the record gives one, comes before them (interpret.ts). Deterministic, no I/O.
 */
const Phenotype = z.object({ hpo: z.string().regex(/^HP:\d{7}$/), finding: z.string().min(1) });
const Interval = z.tuple([z.number(), z.number()]).refine(([lo, hi]) => lo < hi, 'low below high');
const Lab = z.object({
  loinc: z.string().regex(/^\d+-\d$/),
  analyte: z.string().min(1),
  /** The base unit of the analyte's reading rule (analysis/measurement-rules.json). */
  unit: z.string().min(1),
  range: Interval,
  /** Narrower by sex; an unknown sex takes `range`, which spans both. */
  bySex: z.object({ F: Interval, M: Interval }).optional(),
  source: z.string().min(1),
  low: Phenotype.optional(),
  high: Phenotype.optional(),
});
export type LabReference = z.infer<typeof Lab>;
export type LabPhenotype = z.infer<typeof Phenotype>;
export type Direction = 'low' | 'normal' | 'high';
export type Sex = 'M' | 'F';

const Table = z.object({ sources: z.record(z.string(), z.string().min(1)), labs: z.array(Lab).min(1) });

// Validated once at load: a malformed table is a programming error, not a silent no-op.
const parsed = Table.parse(table);
export const LAB_SOURCES: Readonly<Record<string, string>> = parsed.sources;
export const LAB_REFERENCES: readonly LabReference[] = parsed.labs;
const BY_LOINC: ReadonlyMap<string, LabReference> = new Map(LAB_REFERENCES.map((l) => [l.loinc, l]));

/** The reference entry of an analyte by its reading rule's LOINC code; undefined when the table has none. */
export const labReference = (loinc: string): LabReference | undefined => BY_LOINC.get(loinc);

/** The interval that applies: by sex when known and given, else the one for anyone. */
export function intervalFor(lab: LabReference, sex: Sex | null): readonly [number, number] {
  return (sex !== null && lab.bySex?.[sex]) || lab.range;
}

/** A value in the lab's base unit against its interval. */
export function directionOf(lab: LabReference, value: number, sex: Sex | null): Direction {
  const [lo, hi] = intervalFor(lab, sex);
  return value < lo ? 'low' : value > hi ? 'high' : 'normal';
}

/** The phenotype a direction shows; null for normal or a direction the table names nothing for (a high SpO2). */
export function phenotypeOf(lab: LabReference, direction: Direction): LabPhenotype | null {
  return direction === 'normal' ? null : (lab[direction] ?? null);
}

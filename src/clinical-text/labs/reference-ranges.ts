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
  /** A guideline's decision limit (glucose 200 mg/dL, SpO2 92 %): applied as written, no borderline. */
  decision: z.boolean().optional(),
  low: Phenotype.optional(),
  high: Phenotype.optional(),
});
export type LabReference = z.infer<typeof Lab>;
export type LabPhenotype = z.infer<typeof Phenotype>;
export type Direction = 'low' | 'normal' | 'high';
export type Sex = 'M' | 'F';

const Table = z.object({ borderline: z.number().min(0).max(0.5), sources: z.record(z.string(), z.string().min(1)), labs: z.array(Lab).min(1) });

// Validated once at load: a malformed table is a programming error, not a silent no-op.
const parsed = Table.parse(table);
export const LAB_SOURCES: Readonly<Record<string, string>> = parsed.sources;
/** Beyond a population interval by less than this fraction of its width: normal at some laboratories, so no phenotype by the table. */
export const BORDERLINE: number = parsed.borderline;
export const LAB_REFERENCES: readonly LabReference[] = parsed.labs;
const BY_LOINC: ReadonlyMap<string, LabReference> = new Map(LAB_REFERENCES.map((l) => [l.loinc, l]));

/** The reference entry of an analyte by its reading rule's LOINC code; undefined when the table has none. */
export const labReference = (loinc: string): LabReference | undefined => BY_LOINC.get(loinc);

/** The interval that applies: by sex when known and given, else the one for anyone. */
export function intervalFor(lab: LabReference, sex: Sex | null): readonly [number, number] {
  return (sex !== null && lab.bySex?.[sex]) || lab.range;
}

/**
 * A value in the lab's base unit against its interval. The table stands for many laboratories,
 * whose intervals differ by method: a value just beyond a population interval (by less than
 * BORDERLINE of its width: WBC above 11.7, not 11.2) is inside some of theirs, so only that laboratory's own flag or range
 * calls it (interpret.ts). A guideline's decision limit applies as written.
 */
export function directionOf(lab: LabReference, value: number, sex: Sex | null): Direction {
  const [lo, hi] = intervalFor(lab, sex);
  // A tenth of the width, never more than a tenth of the bound itself (TSH 0.4-5: low below 0.36, not below 0).
  const margin = (bound: number) => (lab.decision ? 0 : BORDERLINE * Math.min(hi - lo, Math.abs(bound)));
  return value < lo - margin(lo) ? 'low' : value > hi + margin(hi) ? 'high' : 'normal';
}

/** The phenotype a direction shows; null for normal or a direction the table names nothing for (a high SpO2). */
export function phenotypeOf(lab: LabReference, direction: Direction): LabPhenotype | null {
  return direction === 'normal' ? null : (lab[direction] ?? null);
}

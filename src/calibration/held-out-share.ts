/**
 * The share of a build's own patients its default calibration holds out (issue 48): a patient
 * (else a record) is held out when a salted hash of it falls under the share. The salt keeps
 * the draw independent of any `dxgraph split` / `--test-fraction` seed: a build of a split's
 * train part with the same seed would otherwise find no patient to hold out (every train
 * patient hashed above that split's fraction).
 */
import type { NormalizedRecord } from '../domain/record.js';
import { hashUnit, splitUnitOf } from '../sources/split.js';

/** Share of patients held out for the fit (the demo's 80/20, issue 26). */
export const DEFAULT_HELD_OUT_SHARE = 0.2;
/**
 * Fewer held-out patients than this and the build stays uncalibrated, saying so: three coded
 * cases per patient then give ~120 fit cases, four times the fit's own floor
 * (fit-stage.ts MIN_CASES_PER_KIND), and a handful of patients say little about 49 diseases.
 */
export const MIN_HELD_OUT_PATIENTS = 40;
/**
 * Enough: past this many held-out patients the fit's parameters hardly move (two to a few
 * dozen), while each one costs up to four diagnose queries; a large source holds out a smaller share.
 */
export const MAX_HELD_OUT_PATIENTS = 1000;

const SALT = 'dxgraph-calibration';

export interface HeldOutPlan {
  share: number;
  /** Patients (or records, when the source names none) of the build, and those held out. */
  units: number;
  heldOutUnits: number;
  /** Null when enough are held out; else why the build stays uncalibrated. */
  tooSmall: string | null;
}

const unitHeldOut = (unit: string, share: number): boolean => hashUnit(0, `${SALT}\u0000${unit}`) < share;

export function isHeldOut(rec: Pick<NormalizedRecord, 'id' | 'diagnosis' | 'patient'>, share: number): boolean {
  return unitHeldOut(splitUnitOf(rec), share);
}

/** The share for a build of `units` patients: the default, lowered for large sources. */
export function heldOutShare(units: number, o: { share?: number } = {}): number {
  const share = o.share ?? DEFAULT_HELD_OUT_SHARE;
  return units * share > MAX_HELD_OUT_PATIENTS ? MAX_HELD_OUT_PATIENTS / units : share;
}

/** Counts the build's patients and those held out at the chosen share (one pass over the records). */
export async function planHeldOut(records: AsyncIterable<NormalizedRecord>, include: (r: NormalizedRecord) => boolean, o: { share?: number } = {}): Promise<HeldOutPlan> {
  const units = new Set<string>();
  for await (const r of records) if (include(r)) units.add(splitUnitOf(r));
  const share = heldOutShare(units.size, o);
  let heldOutUnits = 0;
  for (const u of units) if (unitHeldOut(u, share)) heldOutUnits++;
  const tooSmall = heldOutUnits < MIN_HELD_OUT_PATIENTS
    ? `${units.size} patients: a ${Math.round(share * 100)}% share holds out ${heldOutUnits}, fewer than the ${MIN_HELD_OUT_PATIENTS} a calibration needs`
    : null;
  return { share, units: units.size, heldOutUnits, tooSmall };
}

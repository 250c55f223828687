/**
 * The share of a build's own patients its default calibration holds out (issue 48): a patient
 * (else a record) is held out when a salted hash of it falls under the share. The salt keeps
 * the draw independent of any `dxgraph split` / `--test-fraction` seed: a build of a split's
 * train part with the same seed would otherwise find no patient to hold out (every train
 * patient hashed above that split's fraction).
 */
import type { NormalizedRecord } from '../domain/record.js';
import { hashUnit, splitUnitOf } from '../sources/split.js';
import { MIN_BAND_CASES } from './fit-temperature.js';

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
  /** Disjoint held-out shares, each answered by a KG of the rest (1: one held-out share); heldOutUnits counts them all. */
  folds: number;
  /** Null when enough are held out; else why the build stays uncalibrated. */
  tooSmall: string | null;
}

/** Fold f holds out the units whose salted hash falls in [f·share, (f+1)·share): disjoint folds, fold 0 the share as before. */
const unitHeldOut = (unit: string, share: number, fold = 0): boolean => {
  const h = hashUnit(0, `${SALT}\u0000${unit}`);
  return h >= fold * share && h < (fold + 1) * share;
};

export function isHeldOut(rec: Pick<NormalizedRecord, 'id' | 'diagnosis' | 'patient'>, share: number, fold = 0): boolean {
  return unitHeldOut(splitUnitOf(rec), share, fold);
}

/** The share for a build of `units` patients: the default, lowered for large sources. */
export function heldOutShare(units: number, o: { share?: number } = {}): number {
  const share = o.share ?? DEFAULT_HELD_OUT_SHARE;
  return units * share > MAX_HELD_OUT_PATIENTS ? MAX_HELD_OUT_PATIENTS / units : share;
}

/**
 * Counts the build's patients and those held out at the chosen share (one pass over the records).
 * `folds`: how many disjoint shares. By default as many as keep the held-out patients within
 * MAX_HELD_OUT_PATIENTS, at most 1 / share (every patient held out once: five folds at 20%), so a
 * coded fit has enough chief complaints for a calibration of their own (fit-strata.ts): the
 * README build's one share held out 180, and its first turn followed that share's noise (fold to
 * fold 3-6 points of overconfidence; @0 ECE 0.050), five hold out all 925 (@0 0.034, docs/eval.md).
 * A large source's one share already holds MAX_HELD_OUT_PATIENTS, further folds answer coded cases
 * only (cross-fit.ts), and under MIN_BAND_CASES patients no number of folds gives the first turn a
 * level of its own: one fold, one fit build, for those, for a source of notes alone and for a small one.
 */
export async function planHeldOut(records: AsyncIterable<NormalizedRecord>, include: (r: NormalizedRecord) => boolean, o: { share?: number; folds?: number } = {}): Promise<HeldOutPlan> {
  const units = new Set<string>();
  let coded = false;
  for await (const r of records) {
    if (!include(r)) continue;
    units.add(splitUnitOf(r));
    coded ||= r.findings.length > 0;
  }
  const share = heldOutShare(units.size, o);
  let first = 0;
  for (const u of units) if (unitHeldOut(u, share)) first++;
  const tooSmall = first < MIN_HELD_OUT_PATIENTS
    ? `${units.size} patients: a ${Math.round(share * 100)}% share holds out ${first}, fewer than the ${MIN_HELD_OUT_PATIENTS} a calibration needs`
    : null;
  // More folds buy the first turn a calibration of its own (a level of MIN_BAND_CASES chief complaints,
  // fit-strata.ts): a source with fewer patients than that cannot reach it however many it holds out.
  const more = coded && units.size >= MIN_BAND_CASES;
  const folds = tooSmall ? 1 : Math.min(Math.max(1, Math.floor(1 / share + 1e-9)), o.folds ?? (more ? Math.max(1, Math.floor(MAX_HELD_OUT_PATIENTS / first)) : 1));
  let heldOutUnits = 0;
  for (const u of units) if (hashUnit(0, `${SALT}\u0000${u}`) < folds * share) heldOutUnits++;
  return { share, units: units.size, heldOutUnits, folds, tooSmall };
}

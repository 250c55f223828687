/**
 * The calibration fit on a worker thread (issue 49). The fit is pure arithmetic on the collected
 * raw scores (a default build's: 15-25 s of one core, most of it the broad reading's simplex
 * fits, fit-temperature.ts), and the served build after it is mostly Neo4j's work and waiting on
 * it: on a thread of its own the fit runs beside the served build (cross-fit.ts) instead of
 * before it. Same code, same parameters to the bit (fit-worker.ts).
 */
import type { Worker } from 'node:worker_threads';
import { DxError } from '../errors.js';
import { tsWorker } from '../util/ts-worker.js';
import type { CollectedSamples } from './fit-stage.js';
import type { InputKind } from './temperature.js';
import type { TemperatureFit } from './fit-temperature.js';

const ENTRY = new URL('./fit-worker.ts', import.meta.url);

export type Fits = Partial<Record<InputKind, TemperatureFit>>;

/** A fit that threw on its thread, or a thread that died: the build cannot be calibrated. */
export class CalibrationFitError extends DxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CALIBRATION_FIT', message, options);
  }
}

type FromWorker = { ok: true; fits: Fits } | { ok: false; message: string };

/** fitCalibration(samples) on a worker thread; rejects with CalibrationFitError when it fails. */
export function fitCalibrationOffThread(samples: CollectedSamples): Promise<Fits> {
  const { byKind, counts } = samples;
  return new Promise<Fits>((resolve, reject) => {
    let settled = false;
    const worker: Worker = tsWorker(ENTRY, { workerData: { byKind, counts } });
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
      void worker.terminate();
    };
    worker.once('message', (m: FromWorker) => settle(() => (m.ok ? resolve(m.fits) : reject(new CalibrationFitError(`calibration fit failed: ${m.message}`)))));
    worker.once('error', (e) => settle(() => reject(new CalibrationFitError(`calibration fit failed on its thread: ${e.message}`, { cause: e }))));
    worker.once('exit', (code) => settle(() => reject(new CalibrationFitError(`calibration fit thread exited (code ${code}) without a result`))));
  });
}

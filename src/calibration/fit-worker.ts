/**
 * Worker-thread entry of fit-off-thread.ts: the calibration fit (fit-stage.ts fitCalibration) on
 * the samples it is given, its result posted back. The same code as on the main thread, so the
 * same parameters to the bit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fitCalibration, type CollectedSamples } from './fit-stage.js';

try {
  parentPort!.postMessage({ ok: true, fits: fitCalibration(workerData as CollectedSamples) });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}

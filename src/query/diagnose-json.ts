import type { DiagnoseResult } from './contracts.js';
import { compactTrace } from './compact-trace.js';

/** How `/v1/diagnose` renders its answer: the trace it asks for, and the response size bound. */
export interface JsonRender {
  trace: 'summary' | 'full';
  maxBytes: number;
}

/**
 * The response body of `/v1/diagnose`: the summary trace unless "full" was asked, and never over
 * `maxBytes` (a full trace above it is sent as the summary, which says so in `trace.omitted`).
 * Here rather than in the route so a diagnose worker can render it (diagnose-pool.ts): the
 * result's structured clone and its serialisation were most of the main thread's share of a
 * diagnose, and the main thread serves every client.
 */
export function diagnoseJson(result: DiagnoseResult, render: JsonRender): string {
  if (render.trace === 'full') {
    const full = JSON.stringify(result);
    if (Buffer.byteLength(full) <= render.maxBytes) return full;
  }
  return JSON.stringify(compactTrace(result));
}

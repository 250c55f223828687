import type { NormalizedRecord } from '../domain/record.js';
import type { DiagnoseOptions } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { textInput, type QueryService } from './query-service.js';

/**
 * The `dxgraph ask` accuracy check: each held-out record's text rendering goes through
 * the same `diagnose()` the CLI and the server use, and the first disease is compared
 * with the record's diagnosis (through the disease's aliases, since the build clusters
 * raw diagnosis strings into diseases).
 */
export interface AskAccuracy {
  n: number;
  top1: number;
  top3: number;
  /** Records whose diagnosis is no disease of the KG (cannot be right). */
  unknownDiagnosis: number;
  meanMs: number;
  /** Most frequent confusions "gold -> predicted". */
  confusions: { pair: string; count: number }[];
  meanStageMs: Record<string, number>;
}

/** Raw diagnosis string → disease id, from the diseases' names and aliases. */
export function diagnosisToDisease(s: KgSnapshot): Map<string, string> {
  const m = new Map<string, string>();
  for (const d of s.diseases) {
    m.set(d.name.toLowerCase(), d.id);
    for (const a of d.aliases) m.set(a.toLowerCase(), d.id);
  }
  return m;
}

export async function evaluateAsk(
  service: QueryService,
  records: AsyncIterable<NormalizedRecord> | Iterable<NormalizedRecord>,
  opts: { options?: Partial<DiagnoseOptions>; limit?: number; onProgress?: (done: number) => void } = {},
): Promise<AskAccuracy> {
  const gold = diagnosisToDisease(service.snapshot);
  let n = 0, top1 = 0, top3 = 0, unknown = 0, totalMs = 0;
  const confusions = new Map<string, number>();
  const stageMs: Record<string, number> = {};
  for await (const r of records) {
    if (opts.limit !== undefined && n >= opts.limit) break;
    const res = await service.diagnose(textInput(r.text, { reasoner: 'evidence', ...opts.options }));
    n++;
    totalMs += res.trace.timingsMs.total ?? 0;
    for (const [k, v] of Object.entries(res.trace.timingsMs)) stageMs[k] = (stageMs[k] ?? 0) + v;
    const want = gold.get(r.diagnosis.toLowerCase());
    if (want === undefined) unknown++;
    const ids = res.differential.map((d) => d.diseaseId);
    if (ids[0] === want) top1++;
    else {
      const pair = `${r.diagnosis} -> ${res.differential[0]?.disease ?? '(none)'}`;
      confusions.set(pair, (confusions.get(pair) ?? 0) + 1);
    }
    if (want !== undefined && ids.slice(0, 3).includes(want)) top3++;
    opts.onProgress?.(n);
  }
  const div = (x: number) => (n === 0 ? 0 : x / n);
  return {
    n,
    top1: div(top1),
    top3: div(top3),
    unknownDiagnosis: unknown,
    meanMs: div(totalMs),
    confusions: [...confusions.entries()].map(([pair, count]) => ({ pair, count })).sort((a, b) => b.count - a.count).slice(0, 10),
    meanStageMs: Object.fromEntries(Object.entries(stageMs).map(([k, v]) => [k, Math.round(div(v) * 100) / 100])),
  };
}

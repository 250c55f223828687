/**
 * The full protocol: each test patient's whole record (age, sex, every finding) goes
 * through `diagnose()` — the query service the server runs — and the differential is
 * compared with the record's diagnosis. Sequential, so the trace timings are per-query
 * latencies, not contention.
 */
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseOptions, type DiagnoseResult } from '../query/contracts.js';
import { diseaseLevels, type HierarchySnapshot } from './hierarchy-levels.js';
import { probabilityCase } from './calibration-metrics.js';
import type { DiseaseLevels, EvalCase } from './types.js';

export type InputMode = 'findings' | 'text';

export interface DiagnoseService {
  diagnose(input: DiagnoseInput): Promise<DiagnoseResult>;
}

/** The request a client with this record would send: structured (coded) findings, or the rendered text. */
export function recordInput(rec: NormalizedRecord, mode: InputMode, options: Partial<DiagnoseOptions>): DiagnoseInput {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  if (mode === 'text') return { text: rec.text, findings: [], age: rec.age, sex: rec.sex, options: opts };
  const findings = rec.findings.map((f) => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode }));
  return { text: null, findings, age: rec.age, sex: rec.sex, options: opts };
}

export interface FullProtocolInput {
  records: readonly NormalizedRecord[];
  truth: (rec: NormalizedRecord) => EvalCase['truth'];
  mode: InputMode;
  options: Partial<DiagnoseOptions>;
  onCase?: (done: number) => void;
}

export async function runFullProtocol(deps: { query: DiagnoseService; snapshot: HierarchySnapshot }, input: FullProtocolInput): Promise<EvalCase[]> {
  const cases: EvalCase[] = [];
  for (const rec of input.records) {
    const truth = input.truth(rec);
    let result: DiagnoseResult;
    try {
      result = await deps.query.diagnose(recordInput(rec, input.mode, input.options));
    } catch (e) {
      // A record the pipeline refuses (no usable findings) is a miss, counted in n_failed.
      if (!(e instanceof InputError)) throw e;
      cases.push({ recordId: rec.id, truth, ranked: [], timingsMs: {}, gate: null, failed: e.message });
      input.onCase?.(cases.length);
      continue;
    }
    const ranked = result.differential
      .slice(0, 5)
      .map((d) => diseaseLevels(deps.snapshot, d.diseaseId) ?? ({ diseaseId: d.diseaseId, name: d.disease, subcategoryId: null, categoryId: null, icdBlock: null, icdChapter: null } satisfies DiseaseLevels));
    const g = result.trace.gate;
    const listed = result.differential.map((d) => ({ diseaseId: d.diseaseId, p: d.score }));
    const probability = truth.diseaseId !== null ? { probability: probabilityCase(listed, truth.diseaseId, deps.snapshot.diseases.length) } : {};
    cases.push({ recordId: rec.id, truth, ranked, timingsMs: result.trace.timingsMs, gate: g ? { score: g.score, decision: g.decision } : null, failed: null, ...probability });
    input.onCase?.(cases.length);
  }
  return cases;
}

/**
 * The calibration use case against the current build (`dxgraph calibrate`, and `dxgraph build
 * --calibrate-*` right after a build): opens the query side as the server does but with an
 * evidence reasoner that reports its raw scores, refuses held-out records the build indexed
 * (src/eval/leakage.ts), fits a temperature per input kind and stores it with the build.
 */
import { createEmbedder } from '../adapters/embeddings/index.js';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { Config } from '../config.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { truthResolver } from '../eval/hierarchy-levels.js';
import { assertNoLeakage, findLeakage, indexedRecords } from '../eval/leakage.js';
import { openQueryService } from '../query/query-service.js';
import { EvidenceReasoner } from '../reasoners/evidence-reasoner.js';
import { writeCalibration, type CalibrationFile } from './calibration-file.js';
import { calibrationFile, collectSamples, fitCalibration, scoreCapture } from './fit-stage.js';
import { casesFromRecords, casesFromText } from './held-out-cases.js';
import type { TextCase } from './text-cases.js';

export interface CalibrationInput {
  records: readonly NormalizedRecord[];
  textCases: readonly TextCase[];
  /** Descriptions of where the cases came from (source spec, file paths), stored in the file. */
  sources: string[];
  allowContentDuplicates: boolean;
  onProgress?: (done: number, total: number) => void;
}

export async function runCalibration(config: Config, input: CalibrationInput): Promise<CalibrationFile> {
  if (input.records.length === 0 && input.textCases.length === 0) throw new InputError('calibration needs held-out records or labelled text cases', { field: 'held-out' });
  const graph = new GraphStore(config.neo4j);
  try {
    await graph.connect();
    const capture = scoreCapture();
    // The served evidence reasoner's weights and record retrieval; no LLM: the calibration is the posterior's.
    const reasoner = new EvidenceReasoner(config.priorWeights ?? {}, { onScores: capture.onScores });
    const query = await openQueryService({ graph, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: [reasoner], ...(config.gate ? { gate: config.gate } : {}), ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}) });
    assertNoLeakage(findLeakage(input.records, indexedRecords(query.artifacts.records.values())), { allowContentDuplicates: input.allowContentDuplicates });
    const truthOf = truthResolver(query.snapshot);
    const cases = [
      ...casesFromRecords(input.records, (r) => truthOf(r).diseaseId),
      ...casesFromText(input.textCases, (c) => truthOf({ diagnosis: c.condition, icd10: null }).diseaseId),
    ];
    const samples = await collectSamples({ diagnose: (i) => query.diagnose(i), snapshot: query.snapshot, capture }, cases, (n) => input.onProgress?.(n, cases.length));
    const file = calibrationFile(query.artifacts.manifest.buildId, fitCalibration(samples), samples, input.sources);
    await writeCalibration(config.dataDir, query.artifacts.manifest, file);
    return file;
  } finally {
    await graph.close();
  }
}

/** One line per kind: cases, β(c) = b0 + b1·c, mean NLL of the truth before → after. */
export function formatCalibration(f: CalibrationFile): string {
  const lines = [`posterior calibration for build ${f.buildId} (temperature scaling, β = b0 + b1·completeness)`];
  for (const [kind, k] of Object.entries(f.kinds)) {
    if (!k) continue;
    const raw = k.b0 === 1 && k.b1 === 0 && !k.tail && !k.mix && !k.topLabel && !k.topOdds;
    const stage = k.topOdds ? ' top-odds' : k.topLabel ? ' top-label' : '';
    lines.push(`  ${kind.padEnd(6)} n=${k.n}  ${raw ? 'raw posterior kept (no fit beat it on held-out folds)' : `b0=${k.b0.toFixed(3)} b1=${k.b1.toFixed(3)} tail=${k.tail ?? 'none'} mix=${k.mix ? `${k.mix.weight}@β${k.mix.beta}` : 'none'}${stage}`}  NLL ${k.nllBefore.toFixed(3)} → ${k.nllAfter.toFixed(3)}`);
  }
  if (Object.keys(f.kinds).length === 0) lines.push('  no kind had enough cases: scores stay uncalibrated');
  lines.push(`  cases: ${Object.entries(f.heldOut.cases).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The calibration use case against the current build (`dxgraph calibrate`, and `dxgraph build
 * --calibrate-*` right after a build): opens the query side as the server does but with an
 * evidence reasoner that reports its raw scores, refuses held-out records the build indexed
 * (src/eval/leakage.ts), fits a temperature per input kind and stores it with the build.
 */
import { createEmbedder } from '../adapters/embeddings/index.js';
import { GraphStore } from '../adapters/neo4j/graph-store.js';
import type { Config } from '../config.js';
import type { BuildManifest } from '../domain/artifacts.js';
import type { NormalizedRecord } from '../domain/record.js';
import { InputError } from '../errors.js';
import { truthResolver } from '../eval/hierarchy-levels.js';
import { assertNoLeakage, findLeakage, indexedRecords } from '../eval/leakage.js';
import { openQueryService } from '../query/query-service.js';
import type { ConceptLexicon } from '../clinical-text/concepts/types.js';
import type { PhraseEmbedder } from '../clinical-text/concepts/embed-forms.js';
import { NO_NEO4J, type MemoryKg } from '../query/memory-differences.js';
import { EvidenceReasoner } from '../reasoners/evidence-reasoner.js';
import { writeCalibration, type CalibrationFile } from './calibration-file.js';
import { calibrationFile, collectSamples, fitCalibration, scoreCapture, type CollectedSamples } from './fit-stage.js';
import { casesFromRecords, casesFromText } from './held-out-cases.js';
import type { ShippedText } from './shipped-text-cases.js';
import type { InputKind, KindTemperature } from './temperature.js';
import type { TextCase } from './text-cases.js';

export interface CalibrationInput {
  records: readonly NormalizedRecord[];
  textCases: readonly TextCase[];
  /** Descriptions of where the cases came from (source spec, file paths), stored in the file. */
  sources: string[];
  allowContentDuplicates: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Labelled text shipped with the product: added only when the KG names enough of their diagnoses (shipped-text-cases.ts). */
  shippedText?: ShippedText;
  /** How the fit was made (the default build's cross-fit, issue 48), stored in the file. */
  basis?: string;
  /** Sees the raw scores the fit is made on (numbers only; `dxgraph build --calibration-samples` saves them for refit experiments). */
  onSamples?: (samples: CollectedSamples) => void;
  /** Only these kinds of held-out case (default both): cross-fit.ts's further folds answer coded cases only. */
  kinds?: readonly InputKind[];
  /** The concept layer's lexicon and phrase embedder, loaded once for every fold (query-service.ts defaultConceptDeps); absent: loaded here. */
  concepts?: { lexicon: ConceptLexicon | null; phraseEmbedder: PhraseEmbedder | null };
  /** The current build's KG held in memory (a cross-fit's fit KG, never loaded): no Neo4j is opened. Absent: read from config.neo4j. */
  memory?: MemoryKg;
}

export async function runCalibration(config: Config, input: CalibrationInput): Promise<CalibrationFile> {
  const got = await collectCalibration(config, input);
  const file = { ...calibrationFile(got.manifest.buildId, fitCalibration(got.samples), got.samples, got.sources), ...(got.basis ? { basis: got.basis } : {}) };
  await writeCalibration(config.dataDir, got.manifest, file);
  return file;
}

/** The held-out cases through the current build's served path: the raw scores a fit is made on (runCalibration fits and stores them; cross-fit.ts pools its folds' first). */
export async function collectCalibration(config: Config, input: CalibrationInput): Promise<{ samples: CollectedSamples; sources: string[]; basis: string; manifest: BuildManifest }> {
  if (input.records.length === 0 && input.textCases.length === 0 && (input.shippedText?.cases.length ?? 0) === 0) throw new InputError('calibration needs held-out records or labelled text cases', { field: 'held-out' });
  const graph = input.memory ? null : new GraphStore(config.neo4j);
  try {
    await graph?.connect();
    const side = graph ? { graph } : { graph: NO_NEO4J, memory: input.memory! };
    const capture = scoreCapture();
    // The served evidence reasoner's weights and record retrieval; no LLM: the calibration is the posterior's.
    const reasoner = new EvidenceReasoner(config.priorWeights ?? {}, { onScores: capture.onScores });
    const query = await openQueryService({ ...side, dataDir: config.dataDir, embedder: createEmbedder(config), reasoners: [reasoner], ...(input.concepts ?? {}), ...(config.gate ? { gate: config.gate } : {}), ...(config.query?.recordRetrieval ? { recordRetrieval: config.query.recordRetrieval } : {}) });
    assertNoLeakage(findLeakage(input.records, indexedRecords(query.artifacts.records.values())), { allowContentDuplicates: input.allowContentDuplicates });
    const truthOf = truthResolver(query.snapshot);
    const textTruth = (c: TextCase) => truthOf({ diagnosis: c.condition, icd10: null }).diseaseId;
    const shipped = input.shippedText ? namedShippedText(input.shippedText, textTruth) : null;
    const cases = [
      ...casesFromRecords(input.records, (r) => truthOf(r).diseaseId),
      ...casesFromText(input.textCases, textTruth),
      ...(shipped?.used ? casesFromText(input.shippedText!.cases, textTruth) : []),
    ].filter((c) => !input.kinds || input.kinds.includes(c.kind));
    const samples = await collectSamples({ diagnose: (i) => query.diagnose(i), snapshot: query.snapshot, capture }, cases, (n) => input.onProgress?.(n, cases.length));
    input.onSamples?.(samples);
    const sources = [...input.sources, ...(shipped?.used ? input.shippedText!.sources : [])];
    const basis = [input.basis, shipped?.note].filter(Boolean).join('; ');
    return { samples, sources, basis, manifest: query.artifacts.manifest };
  } finally {
    await graph?.close();
  }
}

/** Shipped labelled text counts only for a KG that names (nearly) all their diagnoses: else another domain's few cases would steer its fit. */
export function namedShippedText(shipped: ShippedText, truth: (c: TextCase) => string | null): { used: boolean; note: string } | null {
  if (shipped.cases.length === 0) return null;
  const named = shipped.cases.filter((c) => truth(c) !== null).length;
  const share = named / shipped.cases.length;
  const used = share >= shipped.minNamed;
  return { used, note: `shipped labelled text ${used ? 'used' : 'not used'}: the KG names the diagnoses of ${named} of its ${shipped.cases.length} cases${used ? '' : ` (needs ${Math.round(shipped.minNamed * 100)}%)`}` };
}

/** One kind's (or band's) parameters in words. */
function paramsLine(k: KindTemperature): string {
  const raw = k.b0 === 1 && k.b1 === 0 && !k.tail && !k.mix && !k.topLabel && !k.topOdds && !k.topBands;
  if (raw) return 'raw posterior kept (no fit beat it on held-out folds)';
  const bands = k.topBands ? ` by completeness ≤ ${k.topBands.map((b) => (b.upTo === null ? '1' : b.upTo.toFixed(2))).join(' | ≤ ')}` : '';
  const stage = k.topBands ? ` ${k.topBands.some((b) => b.topOdds) ? 'top-odds' : 'top-label'}${bands}` : k.topOdds ? ' top-odds' : k.topLabel ? ' top-label' : '';
  return `b0=${k.b0.toFixed(3)} b1=${k.b1.toFixed(3)} tail=${k.tail ?? 'none'} mix=${k.mix ? `${k.mix.weight}@β${k.mix.beta}` : 'none'}${stage}`;
}

/** One line per kind (and one per stratum of a stratified kind, fit-strata.ts): cases, β(c) = b0 + b1·c, mean NLL of the truth before → after. */
export function formatCalibration(f: CalibrationFile): string {
  const lines = [`posterior calibration for build ${f.buildId} (temperature scaling, β = b0 + b1·completeness)`];
  for (const [kind, k] of Object.entries(f.kinds)) {
    if (!k) continue;
    const nll = `NLL ${k.nllBefore.toFixed(3)} → ${k.nllAfter.toFixed(3)}`;
    if (!k.strata) {
      lines.push(`  ${kind.padEnd(6)} n=${k.n}  ${paramsLine(k)}  ${nll}`);
      continue;
    }
    lines.push(`  ${kind.padEnd(6)} n=${k.n}  by completeness: a level many cases share calibrated on its own, the rest by the kind's  ${nll}`);
    let from = 0;
    for (const b of k.strata) {
      lines.push(`    completeness ${from.toFixed(2)}-${b.upTo === null ? '1' : b.upTo.toFixed(2)}: ${paramsLine(b.params)}`);
      from = b.upTo ?? 1;
    }
  }
  if (Object.keys(f.kinds).length === 0) lines.push('  no kind had enough cases: scores stay uncalibrated');
  lines.push(`  cases: ${Object.entries(f.heldOut.cases).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (f.basis) lines.push(`  fitted: ${f.basis}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Vocabulary-scale bench phase: per-query costs of the in-memory query stages (vote, follow-ups
 * as /v1/diagnose ranks them, the evidence reasoner) on the DDXPlus sample and on generated KGs of
 * D diagnoses × F findings × N records (vocab-kg.ts), side by side, with top-1/top-10 accuracy on
 * held-out generated cases. Retrieval (FAISS) and the differences KG (Neo4j, cached per
 * subcategory) are not in memory and are measured by the served phases of `npm run bench`.
 *
 *   npx tsx bench/scale/vocab-phase.ts [--sizes 1000x5000x100000,5000x20000x100000] [--cases 100]
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EngineFollowUpRanker } from '../../src/followups/pipeline-ranker.js';
import { DEFAULT_OPTIONS, type FeatureMatch } from '../../src/query/contracts.js';
import type { KgSnapshot } from '../../src/query/kg-snapshot.js';
import { voteSubcategory } from '../../src/query/vote-subcategory.js';
import { EvidenceReasoner } from '../../src/reasoners/evidence-reasoner.js';
import type { ReasonerContext } from '../../src/reasoners/reasoner.js';
import { ddxplusSampleSnapshot } from './ddxplus-snapshot.js';
import { generateVocabKg, type VocabCase } from './vocab-kg.js';

export interface VocabRow {
  label: string;
  diseases: number;
  features: number;
  records: number;
  edges: number;
  buildMs: number;
  heapMb: number;
  /** Median / p99 ms per query of each stage. */
  stages: Record<'vote' | 'followUps' | 'reason' | 'exhaustive' | 'total', { p50: number; p99: number }>;
  top1: number;
  top10: number;
}

export function caseContext(s: KgSnapshot, c: VocabCase): ReasonerContext {
  const matches: FeatureMatch[] = c.present.map((f, i) => ({ findingIndex: i, featureId: s.features[f]!.id, featureText: s.features[f]!.text, similarity: 1, polarity: 'present' }));
  const input = { text: null, findings: [], age: null, sex: null, options: DEFAULT_OPTIONS };
  return { input, findings: [], matches, votes: [], candidates: [], differencesKg: [], retrieved: [], followUps: [], snapshot: s, signal: null };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export async function measureVocab(label: string, snapshot: KgSnapshot, cases: VocabCase[], buildMs: number): Promise<VocabRow> {
  const reasoner = new EvidenceReasoner();
  // The pre-issue-29 path (every disease scored in full), timed in the same loop for a ratio on a loaded machine.
  const exhaustive = new EvidenceReasoner({ exhaustive: true });
  const ranker = new EngineFollowUpRanker('information-gain');
  const times = { vote: [] as number[], followUps: [] as number[], reason: [] as number[], exhaustive: [] as number[], total: [] as number[] };
  let top1 = 0;
  let top10 = 0;
  // The first pass warms the per-snapshot tables and the JIT; only the second is timed.
  for (const pass of [0, 1]) {
    for (const c of cases) {
      const ctx = caseContext(snapshot, c);
      const t0 = performance.now();
      const vote = voteSubcategory(snapshot, { matches: ctx.matches, candidates: DEFAULT_OPTIONS.candidateSubcategories });
      const t1 = performance.now();
      const candidateDiseases = vote.candidates.flatMap((v) => [...(snapshot.subcategoryDiseases[snapshot.subcategoryIndex.get(v.subcategoryId) ?? -1] ?? [])]);
      ranker.rank({ snapshot, candidateDiseases, reportedFeatureIds: new Set(ctx.matches.map((m) => m.featureId)), limit: DEFAULT_OPTIONS.followUps });
      const t2 = performance.now();
      const out = await reasoner.reason({ ...ctx, votes: vote.votes, candidates: vote.candidates });
      const t3 = performance.now();
      await exhaustive.reason({ ...ctx, votes: vote.votes, candidates: vote.candidates });
      const t4 = performance.now();
      if (pass === 0) continue;
      times.exhaustive.push(t4 - t3);
      times.vote.push(t1 - t0);
      times.followUps.push(t2 - t1);
      times.reason.push(t3 - t2);
      times.total.push(t3 - t0);
      const rank = out.differential.findIndex((d) => d.diseaseId === snapshot.diseases[c.disease]!.id);
      if (rank === 0) top1++;
      if (rank >= 0 && rank < 10) top10++;
    }
  }
  const stat = (xs: number[]) => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) });
  return {
    label,
    diseases: snapshot.diseases.length,
    features: snapshot.features.length,
    records: snapshot.totalRecords,
    edges: snapshot.manifestations.reduce((a, m) => a + m.features.length, 0),
    buildMs,
    heapMb: process.memoryUsage().heapUsed / 2 ** 20,
    stages: { vote: stat(times.vote), followUps: stat(times.followUps), reason: stat(times.reason), exhaustive: stat(times.exhaustive), total: stat(times.total) },
    top1: top1 / cases.length,
    top10: top10 / cases.length,
  };
}

export function parseSize(spec: string): { diseases: number; features: number; records: number } {
  const [diseases, features, records] = spec.split('x').map(Number);
  if (!diseases || !features || !records) throw new Error(`--sizes: "${spec}" is not DxFxN`);
  return { diseases, features, records };
}

export async function runVocabPhase(sizes: string[], cases: number): Promise<VocabRow[]> {
  const rows: VocabRow[] = [];
  let t = performance.now();
  const ddx = await ddxplusSampleSnapshot({ cases });
  rows.push(await measureVocab('DDXPlus sample', ddx.snapshot, ddx.cases, performance.now() - t));
  for (const spec of sizes) {
    t = performance.now();
    const g = generateVocabKg({ ...parseSize(spec), cases, seed: 7 });
    rows.push(await measureVocab(`generated ${spec}`, g.snapshot, g.cases, performance.now() - t));
  }
  return rows;
}

export function vocabTable(rows: VocabRow[]): string {
  const f = (x: number) => x.toFixed(2);
  const head = '| KG | diseases | features | edges | vote p50 | follow-ups p50 / p99 | reason p50 / p99 | reason, exhaustive p50 / p99 | total p50 / p99 | top-1 | top-10 | generate+snapshot |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const body = rows.map((r) => `| ${r.label} | ${r.diseases} | ${r.features} | ${r.edges} | ${f(r.stages.vote.p50)} | ${f(r.stages.followUps.p50)} / ${f(r.stages.followUps.p99)} | ${f(r.stages.reason.p50)} / ${f(r.stages.reason.p99)} | ${f(r.stages.exhaustive.p50)} / ${f(r.stages.exhaustive.p99)} | ${f(r.stages.total.p50)} / ${f(r.stages.total.p99)} | ${r.top1.toFixed(2)} | ${r.top10.toFixed(2)} | ${(r.buildMs / 1000).toFixed(1)} s |`);
  return [head, ...body].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000x5000x100000,5000x20000x100000' }, cases: { type: 'string', default: '100' } } });
  const rows = await runVocabPhase(values.sizes!.split(','), Number(values.cases));
  console.log(vocabTable(rows));
  const mem = process.memoryUsage();
  console.log(`after the phase: heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MB, array buffers ${(mem.arrayBuffers / 2 ** 20).toFixed(0)} MB, rss ${(mem.rss / 2 ** 20).toFixed(0)} MB; loadavg ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}

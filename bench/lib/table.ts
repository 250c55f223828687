import type { FaissBenchResult } from './faiss-bench.js';
import type { BenchReport } from './report-types.js';

/** The bench report as a plain-text table: one column per size, one row per figure. */
export function formatTable(r: BenchReport): string {
  const sizes = r.sizes;
  const rows: [string, ...string[]][] = [];
  const row = (label: string, f: (s: (typeof sizes)[number]) => string | number | null | undefined) => rows.push([label, ...sizes.map((s) => String(f(s) ?? '-'))]);
  row('records', (s) => s.size);
  if (sizes.some((s) => s.error)) row('failed', (s) => s.error?.slice(0, 60) ?? '');
  row('build total (s)', (s) => (s.build.totalMs / 1000).toFixed(1));
  const stages = [...new Set(sizes.flatMap((s) => Object.keys(s.build.stagesMs)))];
  for (const st of stages) row(`  stage ${st} (ms)`, (s) => s.build.stagesMs[st]);
  row('neo4j relationships (KG)', (s) => s.build.neo4j.relationships);
  row('neo4j KG load (rels/s)', (s) => s.build.neo4j.relsPerSec);
  row('  per Neo4j CPU-second', (s) => s.build.neo4j.relsPerCpuSec);
  if (sizes.some((s) => s.build.neo4j.records)) {
    row('records in graph: relationships', (s) => s.build.neo4j.records?.relationships);
    row('  load (s) | rels/s | per Neo4j CPU-s', (s) => s.build.neo4j.records && `${(s.build.neo4j.records.loadMs / 1000).toFixed(1)} | ${s.build.neo4j.records.relsPerSec} | ${s.build.neo4j.records.relsPerCpuSec ?? '-'}`);
  }
  if (sizes.some((s) => s.build.neo4j.coldStart)) {
    row('  cold server: rels | rels/s', (s) => s.build.neo4j.coldStart && `${s.build.neo4j.coldStart.relationships} | ${s.build.neo4j.coldStart.relsPerSec}`);
  }
  row('record index', (s) => `${s.build.recordIndex.kind} ${s.build.recordIndex.size}`);
  row('build peak RSS (MB)', (s) => s.build.peakRssMb);
  row('server start-up (ms)', (s) => s.serve?.startupMs);
  row('/v1/diagnose p50 / p99, 1 client (ms)', (s) => s.latency && `${s.latency.latency.p50} / ${s.latency.latency.p99}`);
  row('/v1/diagnose p50 / p99 saturated (ms)', (s) => s.load && `${s.load.latency.p50} / ${s.load.latency.p99}`);
  row('/v1/diagnose req/s', (s) => s.load && `${s.load.throughput.toFixed(1)} (c=${s.load.connections}, ${s.load.errors + s.load.non2xx + s.load.timeouts} err)`);
  row('diagnose in-process p50/p99', (s) => `${s.serve?.inProcessDiagnoseMs.p50.toFixed(1)} / ${s.serve?.inProcessDiagnoseMs.p99.toFixed(1)}`);
  row('server peak RSS (MB)', (s) => s.serve?.serveRssMb);
  for (const name of [...new Set(sizes.flatMap((s) => s.serve?.faiss?.indexes.map((i) => i.name) ?? []))]) {
    row(`faiss ${name} build ms | q p50 ms | recall@10`, (s) => faissCell(s.serve?.faiss ?? null, name));
  }
  row('match+vote+retrieve dxgraph (ms)', (s) => s.serve?.sideBySide && `${s.serve?.sideBySide.dxgraphMs.mean.toFixed(2)} (${s.serve?.sideBySide.dxgraphMs.match.toFixed(2)}/${s.serve?.sideBySide.dxgraphMs.vote.toFixed(2)}/${s.serve?.sideBySide.dxgraphMs.retrieve.toFixed(2)})`);
  row('same, reference path (ms)', (s) => s.serve?.sideBySide && `${s.serve?.sideBySide.referenceMs.mean.toFixed(1)} (${s.serve?.sideBySide.referenceMs.match.toFixed(1)}/${s.serve?.sideBySide.referenceMs.vote.toFixed(1)}/${s.serve?.sideBySide.referenceMs.retrieve.toFixed(1)})`);
  row('speed-up vs reference (x)', (s) => s.serve?.sideBySide && `${s.serve?.sideBySide.speedup} (same L2 ${s.serve?.sideBySide.sameWinner})`);
  // A --faiss-only run alone has no served size: no empty figure grid.
  const out = sizes.length > 0 ? [grid(['figure', ...sizes.map((s) => `${s.size / 1000}k`)], rows)] : [];
  for (const f of r.faissOnly) {
    out.push(`\nFAISS only, ${f.size} records (no Neo4j): embed ${(f.result.embedMs / 1000).toFixed(1)} s, exact JS ${f.result.exactJsMs} ms/query, peak RSS ${f.result.peakRssMb} MB (build ${f.result.buildPeakRssMb}, search ${f.result.search.map((x) => x.peakRssMb).join('/')})`);
    out.push(grid(['index', 'build (s)', 'query p50 (ms)', 'query p99 (ms)', 'recall@10', 'tie-aware'], f.result.indexes.map((i) => [i.name, (i.buildMs / 1000).toFixed(1), i.query.p50.toFixed(2), i.query.p99.toFixed(2), String(i.recallAt10), String(i.recallTieAware)])));
  }
  return out.join('\n');
}

function faissCell(f: FaissBenchResult | null, name: string): string {
  const i = f?.indexes.find((x) => x.name === name);
  return i ? `${i.buildMs} | ${i.query.p50.toFixed(2)} | ${i.recallTieAware}` : '-';
}

function grid(head: string[], rows: string[][]): string {
  const all = [head, ...rows];
  const w = head.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((x, c) => (c === 0 ? x.padEnd(w[c]!) : x.padStart(w[c]!))).join('  ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

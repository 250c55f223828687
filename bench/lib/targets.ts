import type { BenchReport } from './report-types.js';

/** The issue's targets, checked against the figures of this run (null = not measured here). */
export function checkTargets(r: Omit<BenchReport, 'targets' | 'totalSeconds'>): BenchReport['targets'] {
  const at100k = r.sizes.find((s) => s.size === 100_000) ?? null;
  const largest = r.sizes.at(-1) ?? null;
  const f1m = r.faissOnly.find((f) => f.size === 1_000_000)?.result ?? null;
  const out: BenchReport['targets'] = [];
  const add = (name: string, target: string, value: number | null, ok: (v: number) => boolean, fmt: (v: number) => string) =>
    out.push({ name, target, measured: value === null ? 'not measured' : fmt(value), met: value === null ? null : ok(value) });
  // Latency targets on the one-client run (a request's own time); throughput on the saturated run.
  add('/v1/diagnose p50 @100k', '<= 15 ms', at100k?.latency?.latency.p50 ?? null, (v) => v <= 15, (v) => `${v.toFixed(1)} ms`);
  add('/v1/diagnose p99 @100k', '<= 50 ms', at100k?.latency?.latency.p99 ?? null, (v) => v <= 50, (v) => `${v.toFixed(1)} ms`);
  add('/v1/diagnose throughput @100k', '>= 150 req/s', at100k?.load?.throughput ?? null, (v) => v >= 150, (v) => `${v.toFixed(1)} req/s`);
  add('build of 100k incl. Neo4j', '<= 60 s', at100k ? at100k.build.totalMs / 1000 : null, (v) => v <= 60, (v) => `${v.toFixed(1)} s`);
  // The rate on the biggest load: the records build of the largest size that had one (a
  // KG-only load is ~20k relationships, too few for a rate: fixed costs dominate).
  const biggest = r.sizes.filter((s) => s.build.neo4j.records).sort((a, b) => b.build.neo4j.records!.relationships - a.build.neo4j.records!.relationships)[0] ?? null;
  const load = biggest?.build.neo4j.records ?? null;
  add(`Neo4j load rate @${biggest ? biggest.size / 1000 : '?'}k (${load ? Math.round(load.relationships / 1000) : '?'}k rels)`, '>= 50k rels/s', load?.relsPerSec ?? null, (v) => v >= 50_000, (v) => `${Math.round(v)} rels/s`);
  const best = f1m?.indexes.filter((i) => i.name !== 'flat').sort((a, b) => b.recallTieAware - a.recallTieAware || a.query.p50 - b.query.p50).find((i) => i.query.p50 <= 5) ?? null;
  add('recall@10 @1M at <= 5 ms/query', '>= 0.95', f1m ? (best?.recallTieAware ?? 0) : null, (v) => v >= 0.95, (v) => `${v}${best ? ` (${best.name}, ${best.query.p50.toFixed(2)} ms)` : ''}`);
  add('peak RSS @1M (FAISS phase)', '<= 4096 MB', f1m?.peakRssMb ?? null, (v) => v <= 4096, (v) => `${v} MB`);
  const sp = at100k?.serve?.sideBySide?.speedup ?? largest?.serve?.sideBySide?.speedup ?? null;
  add('speed-up vs reference path', '>= 50x', sp, (v) => v >= 50, (v) => `${v}x`);
  return out;
}

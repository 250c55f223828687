/**
 * Paired A/B of the information-density gate on the current build (issue 19 decision,
 * docs/gate.md "Default: off"): every test patient through diagnose() with the gate off and
 * with the gate on (`auto`: the build's classifier and calibrated thresholds), in one
 * process, alternating which goes first so machine load hits both alike. Prints top-1
 * accuracy, the share answered directly and wall-clock latency per request (mean, median).
 *
 * Usage (NEO4J_URI / DXGRAPH_DATA_DIR: the build to measure, as for `dxgraph eval`):
 *   npx tsx bench/gate-ab.ts --test ddxplus:work/test [--input text|findings|initial] [--limit N]
 * `initial` sends the DDXPlus initial evidence only (age, sex, chief complaint): scant input.
 */
import { parseArgs } from 'node:util';
import { createEmbedder } from '../src/adapters/embeddings/index.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import type { NormalizedRecord } from '../src/domain/record.js';
import { truthResolver } from '../src/eval/hierarchy-levels.js';
import { recordInput } from '../src/eval/run-full.js';
import { createLogger } from '../src/logger.js';
import type { DiagnoseInput } from '../src/query/contracts.js';
import { openQueryService } from '../src/query/query-service.js';
import { createReasoners } from '../src/query/served-query.js';
import { openSource, parseSourceSpec } from '../src/sources/source-spec.js';

const { values: a } = parseArgs({ options: { test: { type: 'string' }, input: { type: 'string', default: 'text' }, limit: { type: 'string', default: '100000' } } });
if (!a.test) throw new Error('--test <source spec> is required (e.g. ddxplus:work/test)');
const mode = a.input as 'text' | 'findings' | 'initial';
if (!['text', 'findings', 'initial'].includes(mode)) throw new Error(`--input must be text | findings | initial, got ${mode}`);

const config = loadConfig();
const graph = new GraphStore(config.neo4j);
await graph.connect();
try {
  const embedder = createEmbedder(config);
  const reasoners = await createReasoners(config, createLogger({ level: 'silent' }));
  const open = (m: 'off' | 'auto') => openQueryService({ graph, dataDir: config.dataDir, embedder, reasoners, gate: { mode: m, theta1: null, theta2: null } });
  const svc = { off: await open('off'), on: await open('auto') };
  const truth = truthResolver(svc.off.snapshot);

  const records: NormalizedRecord[] = [];
  const source = await openSource(parseSourceSpec(a.test), { strict: false });
  try {
    for await (const r of source.records()) if (records.length < Number(a.limit)) records.push(r);
  } finally {
    await source.close();
  }
  const inputOf = (r: NormalizedRecord): DiagnoseInput => {
    if (mode !== 'initial') return recordInput(r, mode, {});
    const base = recordInput(r, 'findings', {});
    return { ...base, findings: base.findings.filter((f) => f.code === r.initialFindingCode) };
  };
  const cases = records.map((r) => ({ r, input: inputOf(r) })).filter((c) => c.input.text || c.input.findings.length > 0);

  for (const c of cases.slice(0, 20)) for (const s of [svc.off, svc.on]) await s.diagnose(c.input); // warm-up
  const ms = { off: [] as number[], on: [] as number[] };
  const right = { off: 0, on: 0 };
  let direct = 0;
  let directRight = 0;
  for (const [i, c] of cases.entries()) {
    const gold = truth(c.r).diseaseId;
    for (const arm of i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const t0 = performance.now();
      const out = await svc[arm].diagnose(c.input);
      ms[arm].push(performance.now() - t0);
      const ok = out.differential[0]?.diseaseId === gold;
      if (ok) right[arm]++;
      if (arm === 'on' && out.trace.gate?.decision === 'direct') {
        direct++;
        if (ok) directRight++;
      }
    }
  }
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / Math.max(1, v.length);
  const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] ?? 0;
  const n = cases.length;
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  process.stdout.write(
    `gate A/B, ${n} patients, input ${mode}\n` +
      `top-1: off ${pct(right.off / n)}, gated ${pct(right.on / n)}\n` +
      `answered direct: ${pct(direct / n)} (right ${pct(directRight / Math.max(1, direct))})\n` +
      `latency mean: off ${mean(ms.off).toFixed(2)} ms, gated ${mean(ms.on).toFixed(2)} ms; median: off ${median(ms.off).toFixed(2)} ms, gated ${median(ms.on).toFixed(2)} ms\n`,
  );
} finally {
  await graph.close();
}

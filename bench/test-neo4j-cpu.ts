/**
 * The test Neo4j's CPU, phase by phase, on the work integration files give it (issue 49: the
 * suite is CPU-bound and its Neo4j JVMs are its largest single cost). Starts a server as the
 * integration workers do (test/support/neo4j.ts, with the same env), then reads its CPU from
 * /proc around: the start, idle seconds, a build with :Record nodes (explore-queries' fifth of
 * the DDXPlus sample), the explore queries, clearDatabase, the same build again (warm), a build
 * without records over it, idle again. Compare variants by running it with other env (e.g.
 * NEO4J_JVM_ADDITIONAL) back to back at similar load.
 *
 *   node --import tsx bench/test-neo4j-cpu.ts [--idle 20] [--repeat 1] [--jfr out.jfr] [--classes]
 *
 * --queries: the statements sent, by total wall time (count, ms, the text's start): which ones a
 * build pays for (a statement run once per build is mostly planning on a test server).
 * --jfr: a Java Flight Recording of the whole run, dumped with jcmd before the server is killed
 * (the test servers get SIGKILL, so the JVM's dump-on-exit never runs); `jfr print --events
 * jdk.ExecutionSample out.jfr` lists where the CPU went. It adds its own overhead.
 * --classes: the classes the JVM loaded over the run, by where from: the class archive, a jar
 * (not archived: a signed jar, a Java 5 class, or not loaded by the archive's training), or made
 * at run time (lambdas, Neo4j's generated code, proxies), which no training can archive all of.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { cypherPath } from '../src/adapters/neo4j/cypher.js';
import { GraphStore } from '../src/adapters/neo4j/graph-store.js';
import { loadConfig } from '../src/config.js';
import { hashUnit } from '../src/sources/split.js';
import { buildDdxplusKg } from '../test/support/ddxplus-build.js';
import { clearDatabase, startTestNeo4j, stopRunNeo4j, testGraphStore, testNeo4jPid } from '../test/support/neo4j.js';
import { processCpuMs } from '../src/util/proc-cpu.js';

const { values: args } = parseArgs({ options: { idle: { type: 'string', default: '20' }, repeat: { type: 'string', default: '1' }, jfr: { type: 'string' }, queries: { type: 'boolean', default: false }, classes: { type: 'boolean', default: false } } });
const idleMs = Number(args.idle) * 1000;
const classLog = args.classes ? join(mkdtempSync(join(tmpdir(), 'dx-neo4j-classes-')), 'class-load.log') : null;
if (classLog) process.env.NEO4J_JVM_ADDITIONAL = `${process.env.NEO4J_JVM_ADDITIONAL ?? ''} -Xlog:class+load=info:file=${classLog}`.trim();

if (args.jfr) process.env.NEO4J_JVM_ADDITIONAL = `${process.env.NEO4J_JVM_ADDITIONAL ?? ''} -XX:StartFlightRecording=settings=profile`.trim();
const sent = new Map<string, { n: number; ms: number }>();
if (args.queries) {
  const runText = GraphStore.prototype.runText;
  GraphStore.prototype.runText = async function (this: GraphStore, ...a: Parameters<GraphStore['runText']>) {
    const t = Date.now();
    try {
      return await runText.apply(this, a);
    } finally {
      const key = a[0].replace(/\s+/g, ' ').slice(0, 100);
      const q = sent.get(key) ?? { n: 0, ms: 0 };
      sent.set(key, { n: q.n + 1, ms: q.ms + Date.now() - t });
    }
  };
}
const t0 = Date.now();
const self0 = process.cpuUsage();
await startTestNeo4j();
const pid = testNeo4jPid()!;
const rows: { phase: string; wallMs: number; neo4jMs: number; benchMs: number }[] = [];
let lastNeo = 0;
let lastSelf = process.cpuUsage(self0);
let lastAt = t0;
const mark = (phase: string) => {
  const neo = processCpuMs(pid)!;
  const self = process.cpuUsage(self0);
  const now = Date.now();
  rows.push({ phase, wallMs: now - lastAt, neo4jMs: neo - lastNeo, benchMs: Math.round((self.user + self.system - lastSelf.user - lastSelf.system) / 1000) });
  lastNeo = neo;
  lastSelf = self;
  lastAt = now;
};
mark('start');

const dataDir = mkdtempSync(join(tmpdir(), 'dx-neo4j-cpu-'));
try {
  const config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
  const fifth = (r: { id: string }) => hashUnit(7, r.id) < 0.2;
  await new Promise((r) => setTimeout(r, idleMs));
  mark(`idle ${args.idle} s`);
  const store = await testGraphStore();
  for (let i = 0; i < Number(args.repeat); i++) {
    await buildDdxplusKg(config, fifth, { recordsInGraph: true, gate: false });
    mark('build, records');
    await exploreQueries(store);
    mark('explore queries');
    await clearDatabase({ store });
    mark('clearDatabase');
    await buildDdxplusKg(config, fifth, { recordsInGraph: true, gate: false });
    mark('same build again');
    await buildDdxplusKg(config, (r) => hashUnit(7, r.id) >= 0.5, { gate: false });
    mark('half, no records, over it');
    await clearDatabase({ store });
    mark('clearDatabase');
  }
  await new Promise((r) => setTimeout(r, idleMs));
  mark(`idle ${args.idle} s`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  threadsReport(pid);
  if (args.jfr) execFileSync('jcmd', [String(pid), 'JFR.dump', `filename=${args.jfr}`], { stdio: 'inherit' });
  await stopRunNeo4j();
}

const total = rows.reduce((s, r) => s + r.neo4jMs, 0);
process.stdout.write(`test Neo4j CPU by phase (NEO4J_JVM_ADDITIONAL=${JSON.stringify(process.env.NEO4J_JVM_ADDITIONAL ?? '')}):\n`);
for (const r of rows) process.stdout.write(`${r.phase.padEnd(28)} ${(r.wallMs / 1000).toFixed(1).padStart(7)} s wall ${(r.neo4jMs / 1000).toFixed(2).padStart(7)} s Neo4j CPU ${(r.benchMs / 1000).toFixed(2).padStart(7)} s bench CPU\n`);
for (const [k, q] of [...sent].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40)) process.stdout.write(`${String(q.n).padStart(5)} ${String(q.ms).padStart(6)} ms  ${k}\n`);
if (classLog) classesReport(classLog);
process.stdout.write(`${'total'.padEnd(28)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(7)} s wall ${(total / 1000).toFixed(2).padStart(7)} s Neo4j CPU\n`);

/** Every analyst query of cypher/explore/ with the parameters explore-queries.test.ts gives it. */
async function exploreQueries(store: Awaited<ReturnType<typeof testGraphStore>>): Promise<void> {
  const dir = join(cypherPath('x'), '..', 'explore');
  const [cat] = await store.runText('MATCH (c:Category)<-[:IS_A]-(s:Subcategory) RETURN c.id AS id, count(s) AS n ORDER BY n DESC, id LIMIT 1', {}, 'READ');
  const [dis] = await store.runText('MATCH (d:Disease)-[:HAS_KEY_DIFFERENCE]->() WITH d, count(*) AS k MATCH (r:Record)-[:DIAGNOSED_AS]->(d) RETURN d.id AS id, k, count(r) AS n ORDER BY n DESC, id LIMIT 1', {}, 'READ');
  const values: Record<string, unknown> = { categoryId: cat!.id, diseaseId: dis!.id, featuresPerDisease: 3, limit: 5, vocabulary: 'any', learnt: 'any' };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cypher')).sort()) {
    const declared = [...readFileSync(join(dir, file), 'utf8').matchAll(/^\/\/\s*:param\s+(\w+)\s*=>/gm)].map((m) => m[1]!);
    await store.read(`explore/${file.replace(/\.cypher$/, '')}`, Object.fromEntries(declared.map((p) => [p, values[p]])));
  }
}

/** Classes loaded over the run by where from (-Xlog:class+load's `source:`). */
function classesReport(log: string): void {
  const by = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const source = line.match(/ source: (.*)$/)?.[1];
    if (source === undefined) continue;
    const kind = source.startsWith('shared objects file')
      ? 'class archive'
      : /^(jar:)?file:/.test(source)
        ? `jar ${source.replace(/^.*\/([^/!]+?)(!.*)?$/, '$1')}`
        : source.startsWith('jrt:')
          ? 'JDK modules'
          : /^__/.test(source)
            ? 'generated (Neo4j code, reflection, proxies)'
            : 'lambdas and other classes defined at run time';
    by.set(kind, (by.get(kind) ?? 0) + 1);
  }
  const jars = [...by].filter(([k]) => k.startsWith('jar '));
  const rest = [...by].filter(([k]) => !k.startsWith('jar '));
  const fromJars = jars.reduce((s, [, n]) => s + n, 0);
  process.stdout.write(`classes loaded: ${rest.map(([k, n]) => `${k} ${n}`).join(', ')}, from jars ${fromJars} (${jars.sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, n]) => `${k.slice(4)} ${n}`).join(', ')})\n`);
  rmSync(join(log, '..'), { recursive: true, force: true });
}

/** The JVM's threads by CPU, grouped by name (JIT compiler, GC, Bolt workers...), from /proc/<pid>/task. */
function threadsReport(jvm: number): void {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${jvm}/task`)) {
    try {
      const name = readFileSync(`/proc/${jvm}/task/${tid}/comm`, 'utf8').trim().replace(/\d+/g, '#');
      const f = readFileSync(`/proc/${jvm}/task/${tid}/stat`, 'utf8');
      const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, 10 ms ticks
    } catch {
      // the thread ended
    }
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 15);
  process.stdout.write(`JVM threads by CPU (live threads only): ${top.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)}`).join(', ')}\n`);
}

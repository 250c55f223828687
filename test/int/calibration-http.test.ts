import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder } from '../../src/adapters/embeddings/index.js';
import { GraphStore } from '../../src/adapters/neo4j/graph-store.js';
import { CalibrationFileSchema } from '../../src/calibration/calibration-file.js';
import { runCalibration } from '../../src/calibration/run-calibration.js';
import { readTextCases } from '../../src/calibration/text-cases.js';
import { inverseTemperature } from '../../src/calibration/temperature.js';
import { loadConfig, type Config } from '../../src/config.js';
import { buildDir } from '../../src/domain/artifacts.js';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { LeakageError } from '../../src/eval/leakage.js';
import { createLogger } from '../../src/logger.js';
import { readManifest } from '../../src/query/load-snapshot.js';
import { openQueryService, type QueryService } from '../../src/query/query-service.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { startServer, type DxServer } from '../../src/server.js';
import { hashUnit, splitFilter } from '../../src/sources/split.js';
import { runDxgraph } from '../support/cli.js';
import { buildFlagsOf } from '../../src/cli/build-command.js';
import { runBuildCommand } from '../../src/cli/build-run.js';
import { buildDdxplusKg, readDdxplusRecords } from '../support/ddxplus-build.js';

/**
 * Issue 26 end to end: a real build, its posterior calibration fitted on held-out patients of
 * the same source (never in the build) and stored with it, then the REAL server: a served
 * diagnose returns the stored calibration's probabilities, in the uncalibrated order.
 */
const SPLIT = { seed: 3, testFraction: 0.4 };
const inBuild = (r: NormalizedRecord) => splitFilter({ ...SPLIT, part: 'train' })(r) && hashUnit(41, r.id) < 0.6;

async function post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), text };
}

describe('posterior calibration stored with the build and served (issue 26)', function () {
  this.timeout(600_000);
  let dataDir: string;
  let config: Config;
  let server: DxServer;
  let raw: QueryService;
  let graph: GraphStore;
  let test: NormalizedRecord[];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-calibration-int-'));
    config = loadConfig({ ...process.env, DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed' });
    await buildDdxplusKg(config, inBuild, { gate: false });
    // Validation: the train part's records the build left out; test: the other part.
    const validation = await readDdxplusRecords((r) => splitFilter({ ...SPLIT, part: 'train' })(r) && !inBuild(r), 80);
    test = await readDdxplusRecords(splitFilter({ ...SPLIT, part: 'test' }), 5);
    const textCases = (await readTextCases('datasets/vignettes/dev.jsonl')).slice(0, 60);
    await assert.rejects(runCalibration(config, { records: await readDdxplusRecords(inBuild, 5), textCases: [], sources: ['leak'], allowContentDuplicates: false }), LeakageError, 'records the build indexed are refused');
    await runCalibration(config, { records: validation, textCases, sources: ['validation'], allowContentDuplicates: false });
    server = await startServer({ config, logger: createLogger({ level: 'silent' }), port: 0 });
    graph = new GraphStore(config.neo4j);
    await graph.connect();
    raw = await openQueryService({ graph, dataDir, embedder: createEmbedder(config), calibrated: false });
  });

  after(async () => {
    // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket, so no 1 s linger.
    await server?.close({ drainMs: 2000, lingerMs: 0 });
    await graph?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the calibration file is named by the manifest and holds a fit per input kind', async () => {
    const manifest = await readManifest(dataDir);
    assert.deepEqual(manifest.calibration, { file: 'calibration.json' });
    const file = CalibrationFileSchema.parse(JSON.parse(readFileSync(join(buildDir(dataDir, manifest.buildId), 'calibration.json'), 'utf8')));
    assert.equal(file.buildId, manifest.buildId);
    for (const kind of ['coded', 'text'] as const) {
      const k = file.kinds[kind]!;
      assert.ok(k.n >= 30, `${kind}: ${k.n} cases`);
      assert.ok(k.nllAfter <= k.nllBefore + 1e-12, `${kind}: the fit never raises the held-out NLL`);
    }
    // Every held-out record whose diagnosis is a disease of the build gives a case (the others carry no likelihood).
    const cases = file.heldOut.cases.record!;
    assert.ok(cases >= 70 && cases <= 80, `${cases} record cases of 80`);
  });

  it('a served diagnose returns the stored calibration, in the uncalibrated order', async () => {
    const manifest = await readManifest(dataDir);
    const file = CalibrationFileSchema.parse(JSON.parse(readFileSync(join(buildDir(dataDir, manifest.buildId), 'calibration.json'), 'utf8')));
    for (const p of test) {
      const findings = p.findings.map((f) => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode }));
      const requests = [
        { kind: 'coded' as const, input: { text: null, findings, age: p.age, sex: p.sex, options: DEFAULT_OPTIONS } },
        { kind: 'text' as const, input: { text: p.text, findings: [], age: p.age, sex: p.sex, options: DEFAULT_OPTIONS } },
      ];
      for (const { kind, input } of requests) {
        const body = kind === 'text' ? { text: input.text, age: p.age, sex: p.sex } : { findings, age: p.age, sex: p.sex };
        const r = await post(`${server.url}/v1/diagnose`, body);
        assert.equal(r.status, 200, r.text);
        const prob = r.json.probability;
        assert.equal(prob.source, 'evidence-posterior');
        assert.equal(prob.calibrated, true);
        assert.equal(prob.inputKind, kind);
        const fit = file.kinds[kind]!;
        assert.ok(Math.abs(prob.temperature - 1 / inverseTemperature(fit, prob.completeness)) < 1e-9, 'the temperature of the stored parameters');
        assert.equal(prob.tailScale, fit.tail ?? null);
        const uncal = await raw.diagnose(input);
        assert.equal(uncal.probability!.calibrated, false);
        // Every disease at 1% or more is listed (issue 48), so the two lists may differ in length past the 10 best.
        const ids = r.json.differential.map((d: any) => d.diseaseId);
        const n = Math.min(ids.length, uncal.differential.length);
        assert.deepEqual(ids.slice(0, n), uncal.differential.slice(0, n).map((d) => d.diseaseId), 'calibration never reorders');
        for (const d of r.json.differential.slice(10)) assert.ok(d.score >= 0.01, `listed past the 10 best at ${d.score}`);
        const listed = r.json.differential.reduce((a: number, d: any) => a + d.score, 0);
        assert.ok(Math.abs(listed + prob.unlisted - 1) < 1e-6);
        if (Math.abs(prob.temperature - 1) > 1e-3) assert.notEqual(r.json.differential[0].score, uncal.differential[0]!.score, 'the numbers are rescaled');
      }
    }
  });

  it("a session's first turn shows the calibrated differential /v1/diagnose gives", async () => {
    const p = test[0]!;
    const body = { text: p.text, age: p.age, sex: p.sex };
    const d = await post(`${server.url}/v1/diagnose`, body);
    const s = await post(`${server.url}/v1/sessions`, body);
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(s.json.differential.map((x: any) => [x.diseaseId, x.probability]), d.json.differential.map((x: any) => [x.diseaseId, x.score]));
  });
});

/** Samples the server's /v1/kg/summary (Neo4j as it is now) every 50 ms, each sample tagged with the build phase it was asked in. */
function watchGraph(base: string) {
  type Sample = { phase: 'fit' | 'served'; id: string | null; startedAt: string | null; counts: Record<string, number> };
  const seen: Sample[] = [];
  let phase: Sample['phase'] = 'fit';
  let running = true;
  const sample = async () => {
    const at = phase;
    const s = (await (await fetch(`${base}/v1/kg/summary`)).json()) as { build: { id: string; startedAt: string } | null; counts: Record<string, number> };
    seen.push({ phase: at, id: s.build?.id ?? null, startedAt: s.build?.startedAt ?? null, counts: s.counts });
  };
  const first = sample();
  const loop = first.then(async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 50));
      await sample();
    }
  });
  // The last sample is asked after the build returned (one in flight then may have been asked before its load).
  return { seen, first, phase: (p: Sample['phase']) => void (phase = p), stop: async () => { running = false; await loop; await sample(); } };
}

/**
 * Issue 48: `dxgraph build` with no calibration flags calibrates itself, through the real CLI on the
 * synthetic FHIR set (120 patients with notes; its diseases are not the shipped vignettes', so only
 * its own records are fitted on). By default 20% is 24 patients, too few: served uncalibrated, and
 * the build says why; with half held out, a KG of the other half answers them (coded, and their
 * notes as text) and the fit is served with the KG of all 120.
 */
describe('dxgraph build calibrates itself (issue 48; real CLI, Neo4j)', function () {
  this.timeout(600_000);
  const FHIR = 'fhir:datasets/fhir-synthetic/ndjson';
  let dataDir: string;
  let env: Record<string, string>;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dx-selfcal-int-'));
    env = { DXGRAPH_DATA_DIR: dataDir, DXGRAPH_LLM: 'none', DXGRAPH_EMBEDDER: 'hashed', DXGRAPH_LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('too few patients to hold out: one build, served uncalibrated, and the report and manifest say why', async () => {
    const r = await runDxgraph(['build', '--source', FHIR, '--gate-sample', '0'], env);
    assert.equal(r.code, 0, r.stderr.slice(-800));
    assert.match(r.stdout, /^calibration: none, 120 patients: a 20% share holds out \d+, fewer than the 40 a calibration needs/m);
    assert.doesNotMatch(r.stderr, /building a KG of/);
    const manifest = await readManifest(dataDir);
    assert.equal(manifest.calibration, undefined);
    assert.match(manifest.uncalibrated ?? '', /^too small to calibrate: 120 patients/);
  });

  it('half held out: fitted on a KG of the rest, served with the KG of every patient; a server on the same Neo4j sees its graph change once', async () => {
    // The story before left its build (A) in Neo4j: a server serves it while this build (B) calibrates.
    const a = await readManifest(dataDir);
    const server = await startServer({ config: loadConfig({ ...process.env, ...env }), logger: createLogger({ level: 'silent' }), port: 0 });
    const watch = watchGraph(server.url);
    let r: Awaited<ReturnType<typeof runDxgraph>>;
    try {
      await watch.first;
      r = await runDxgraph(['build', '--source', FHIR, '--gate-sample', '0', '--calibration-share', '0.5'], env, {
        onStderrLine: (l) => /^calibration: building the served KG/.test(l) && watch.phase('served'),
      });
    } finally {
      await watch.stop();
      // lingerMs 0: a teardown; no client sends another request on an idle kept-alive socket.
      await server.close({ drainMs: 1000, lingerMs: 0 });
    }
    assert.equal(r.code, 0, r.stderr.slice(-800));
    // Issues 48/49: the fit KG never reached Neo4j (kg-build/memory-snapshot.ts): while it was built
    // and answered, the server read A (its id and load time); then B's served load replaced it.
    const before = watch.seen[0]!;
    assert.equal(before.id, a.buildId);
    const during = watch.seen.filter((s) => s.phase === 'fit');
    assert.ok(during.length >= 3, `${during.length} samples while B's fit KG was built and answered`);
    for (const s of during) assert.deepEqual([s.id, s.startedAt, s.counts], [before.id, before.startedAt, before.counts], 'the graph the server reads is still A while B calibrates');
    const manifest = await readManifest(dataDir);
    const after = watch.seen.at(-1)!;
    assert.equal(after.id, manifest.buildId);
    assert.ok(after.startedAt !== null && before.startedAt !== null && after.startedAt > before.startedAt, 'B was loaded');
    // While B's own load runs the server may show the build that was complete before it; never one
    // started during this command but B (a fit KG would be one).
    const aStarted = before.startedAt!;
    const other = watch.seen.filter((s) => !(s.id === manifest.buildId && s.startedAt === after.startedAt) && !(s.startedAt !== null && s.startedAt <= aStarted));
    assert.deepEqual(other, [], 'only A (or a build before it) and then B');
    assert.match(r.stderr, /calibration: building a KG of \d+ patients, \d+ \(50%\) held out to fit on/);
    assert.match(manifest.calibration?.basis ?? '', /^cross-fit: .* the fit is served with the KG of all 120; shipped labelled text not used: the KG names the diagnoses of \d+ of its \d+ cases \(needs 90%\)/);
    assert.equal(manifest.uncalibrated, undefined);
    const file = CalibrationFileSchema.parse(JSON.parse(readFileSync(join(buildDir(dataDir, manifest.buildId), 'calibration.json'), 'utf8')));
    assert.equal(file.buildId, manifest.buildId);
    assert.ok(file.kinds.coded && file.kinds.coded.n >= 30, 'a coded fit');
    assert.ok((file.heldOut.cases['record-notes'] ?? 0) > 0, 'the held-out notes were asked as text');
    // The served build saw every record: the same KG as a build without calibration. That build
    // runs the command's own code in this process (flags, build, report): a comparison, not the CLI's start.
    const plain = mkdtempSync(join(tmpdir(), 'dx-selfcal-plain-'));
    try {
      let stdout = '';
      const flags = buildFlagsOf(['--source', FHIR, '--gate-sample', '0', '--no-calibrate']);
      await runBuildCommand(flags, { config: loadConfig({ ...process.env, ...env, DXGRAPH_DATA_DIR: plain }), out: (t) => (stdout += t), log: () => {} });
      assert.match(stdout, /^calibration: none \(--no-calibrate\)/m);
      const m = await readManifest(plain);
      assert.equal(m.buildId, manifest.buildId, 'the same KG as a plain build of every record');
      assert.match(m.uncalibrated ?? '', /--no-calibrate/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
    assert.equal(existsSync(join(dataDir, '.calibration-fit')), false, 'the fit KG is removed');
  });
});

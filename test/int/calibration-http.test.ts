import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    await buildDdxplusKg(config, inBuild);
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
    await server?.close({ drainMs: 2000 });
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
        assert.deepEqual(r.json.differential.map((d: any) => d.diseaseId), uncal.differential.map((d) => d.diseaseId), 'calibration never reorders');
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

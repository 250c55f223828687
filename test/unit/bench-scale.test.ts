import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, PATIENTS_FILE } from '../../bench/scale/generate.js';
import { readProfile } from '../../bench/scale/profile.js';
import { ExactTopK } from '../../bench/lib/exact-topk.js';
import { DdxplusSource } from '../../src/sources/ddxplus/ddxplus-source.js';

describe('bench: scale-up generator', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-scale-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('writes DDXPlus rows the DDXPlus source reads unchanged, deterministically per seed', async () => {
    const a = await generate({ size: 400, outDir: join(dir, 'a'), seed: 3 });
    const b = await generate({ size: 400, outDir: join(dir, 'b'), seed: 3 });
    const c = await generate({ size: 400, outDir: join(dir, 'c'), seed: 4 });
    const text = await readFile(join(a.dir, PATIENTS_FILE), 'utf8');
    assert.equal(text, await readFile(join(b.dir, PATIENTS_FILE), 'utf8'), 'same seed, same file');
    assert.notEqual(text, await readFile(join(c.dir, PATIENTS_FILE), 'utf8'), 'another seed, another file');
    const src = new DdxplusSource(a.dir, { strict: true });
    const diagnoses = new Map<string, number>();
    for await (const r of src.records()) {
      diagnoses.set(r.diagnosis, (diagnoses.get(r.diagnosis) ?? 0) + 1);
      assert.ok(r.findings.length > 0, 'every patient has findings');
    }
    assert.equal(src.summary().recordsEmitted, 400);
    assert.equal(src.summary().skipped, 0);
    assert.ok(diagnoses.size >= 30, `most of the 49 pathologies appear (${diagnoses.size})`);
    const again = await generate({ size: 400, outDir: join(dir, 'a'), seed: 3 });
    assert.equal(again.reused, true, 'an existing directory of the same size and seed is reused');
  });

  it('keeps each disease close to its empirical evidence frequencies, initial evidence included', async () => {
    const g = await generate({ size: 3000, outDir: join(dir, 'freq'), seed: 9, noise: 0 });
    const sample = await readProfile('datasets/ddxplus/patients-dev.csv');
    const made = await readProfile(join(g.dir, PATIENTS_FILE));
    const big = sample.diseases.filter((d) => d.rows >= 45);
    assert.ok(big.length > 3);
    for (const d of big) {
      const m = made.diseases.find((x) => x.name === d.name)!;
      for (const [q, s] of d.questions) {
        const want = s.present / d.rows;
        const got = (m.questions.get(q)?.present ?? 0) / m.rows;
        // Initial evidences are forced present, so they may only be more frequent.
        assert.ok(got >= want - 0.12 - 3 / Math.sqrt(m.rows) && (got <= want + 0.12 + 3 / Math.sqrt(m.rows) || d.initial.includes(q)), `${d.name} ${q}: sample ${want.toFixed(2)}, generated ${got.toFixed(2)}`);
      }
    }
    const rows = (await readFile(join(g.dir, PATIENTS_FILE), 'utf8')).trim().split('\n').slice(1, 200);
    for (const row of rows) {
      const initial = row.slice(row.lastIndexOf(',') + 1);
      assert.ok(row.includes(`'${initial}`), `initial evidence ${initial} is among the evidences`);
    }
  });
});

describe('bench: exact top-k (recall ground truth)', () => {
  it('folds chunks into the exact top-k by inner product', () => {
    const dim = 4;
    const rows = Float32Array.from({ length: 40 * dim }, (_, i) => Math.sin(i * 1.7));
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const q = Float32Array.from([0.5, -0.2, 0.8, 0.1]);
    const t = new ExactTopK(5);
    t.scan(q, rows.subarray(0, 17 * dim), dim, ids.slice(0, 17));
    t.scan(q, rows.subarray(17 * dim), dim, ids.slice(17));
    const brute = ids.map((id, r) => ({ id, score: q.reduce((s, x, i) => s + x * rows[r * dim + i]!, 0) })).sort((a, b) => b.score - a.score).slice(0, 5);
    assert.deepEqual(t.sorted().map((h) => h.id), brute.map((h) => h.id));
  });
});

import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSamples, samplesJson } from '../../src/calibration/samples-file.js';
import { ArtifactError } from '../../src/errors.js';

describe('calibration samples file (raw fit scores for refit experiments)', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'dx-samples-')); });
  after(() => rm(dir, { recursive: true, force: true }));

  it('round-trips every kind: scores, truth index and completeness, numbers only', async () => {
    const byKind = {
      coded: [{ scores: Float64Array.from([-1.5, 0, -30]), truth: 2, completeness: 0.25 }],
      text: [{ scores: [2, -4], truth: 0, completeness: 0 }, { scores: [0, 1], truth: 1, completeness: 1 }],
    };
    const json = samplesJson({ byKind });
    assert.deepEqual(Object.keys(JSON.parse(json)).sort(), ['coded', 'text']);
    const path = join(dir, 'samples.json');
    await writeFile(path, json);
    const back = await readSamples(path);
    assert.deepEqual(back.coded, [{ scores: [-1.5, 0, -30], truth: 2, completeness: 0.25 }]);
    assert.deepEqual(back.text.map((s) => s.truth), [0, 1]);
  });

  it('a missing or malformed file is an ArtifactError naming it', async () => {
    await assert.rejects(readSamples(join(dir, 'none.json')), (e: unknown) => e instanceof ArtifactError && /none\.json/.test(e.message));
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ coded: [{ scores: [1], truth: -1, completeness: 0 }], text: [] }));
    await assert.rejects(readSamples(bad), ArtifactError);
  });
});

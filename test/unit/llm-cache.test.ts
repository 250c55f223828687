import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResponseCache } from '../../src/adapters/llm/response-cache.js';

describe('ResponseCache (on-disk LLM responses by content hash)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dxgraph-cache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keys on model and prompt, and survives a new instance (a rebuild)', async () => {
    const k1 = ResponseCache.key('m1', 'prompt');
    assert.match(k1, /^[0-9a-f]{64}$/);
    assert.notEqual(ResponseCache.key('m2', 'prompt'), k1);
    assert.notEqual(ResponseCache.key('m1', 'prompt '), k1);
    assert.equal(ResponseCache.key('m1', 'prompt'), k1);

    const cacheDir = join(dir, 'llm');
    assert.equal(await new ResponseCache(cacheDir).get(k1), null); // miss before the dir exists
    await new ResponseCache(cacheDir).set(k1, { model: 'm1', response: '{"a":1}' });
    assert.equal(await new ResponseCache(cacheDir).get(k1), '{"a":1}');
    const [shard] = await readdir(cacheDir);
    assert.equal(shard, k1.slice(0, 2));
    assert.deepEqual(await readdir(join(cacheDir, shard!)), [`${k1}.json`]); // no temp files left
  });

  it('a torn entry is a miss, not a crash', async () => {
    const cache = new ResponseCache(dir);
    const key = ResponseCache.key('m', 'p');
    await cache.set(key, { model: 'm', response: 'x' });
    await writeFile(join(dir, key.slice(0, 2), `${key}.json`), '{"model": "m", "resp');
    assert.equal(await cache.get(key), null);
  });
});

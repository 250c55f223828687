import assert from 'node:assert/strict';
import { faissThreadsForBuild } from '../../kg-build/build-threads.js';

describe('kg-build: FAISS threads for a build process', () => {
  it('gives OpenMP every core with passive waiting', () => {
    const env: NodeJS.ProcessEnv = {};
    faissThreadsForBuild(env, 2);
    assert.deepEqual(env, { OMP_NUM_THREADS: '2', OMP_WAIT_POLICY: 'PASSIVE' });
  });

  it('keeps values the environment already sets', () => {
    const env: NodeJS.ProcessEnv = { OMP_NUM_THREADS: '1', OMP_WAIT_POLICY: 'ACTIVE' };
    faissThreadsForBuild(env, 8);
    assert.deepEqual(env, { OMP_NUM_THREADS: '1', OMP_WAIT_POLICY: 'ACTIVE' });
  });
});

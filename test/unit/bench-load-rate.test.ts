import assert from 'node:assert/strict';
import { rate } from '../../bench/lib/phase-build.js';

describe('bench: Neo4j load rate', () => {
  it('counts every relationship type read back, over wall seconds and over Neo4j CPU seconds', () => {
    const counts = { isA: 10, manifestations: 100, hasKeyDifference: 5, contrastsWith: 5, about: 5, aliasOf: 5, hasFeature: 850, diagnosedAs: 20, features: 999, records: 20 };
    assert.deepEqual(rate(counts, 2000, 500), { relationships: 1000, relsPerSec: 500, cpuMs: 500, relsPerCpuSec: 2000 });
  });

  it('has no per-CPU figure when Neo4j CPU time is unknown (not a local server)', () => {
    assert.equal(rate({ hasFeature: 10 }, 1000, null).relsPerCpuSec, null);
  });
});

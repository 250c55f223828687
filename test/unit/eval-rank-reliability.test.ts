import assert from 'node:assert/strict';
import { calibrationMetrics, probabilityCase } from '../../src/eval/calibration-metrics.js';
import { rankReliability } from '../../src/eval/rank-reliability.js';

/** Issue 26: where the truth ranked against the probability the differential gave that rank. */
describe('rank reliability', () => {
  it('shares of truths per rank group beside the probability given there, the unlisted rest spread over its diseases', () => {
    const listed = [0.7, 0.2, 0.05, 0.02, 0.01, 0.005, 0.005, 0.004, 0.003, 0.002];
    const cases = [
      { listed, truthRank: 1, unlistedCount: 2 },
      { listed, truthRank: 2, unlistedCount: 2 },
      { listed, truthRank: 7, unlistedCount: 2 },
      { listed, truthRank: null, unlistedCount: 2 },
    ];
    const g = rankReliability(cases);
    assert.deepEqual(g.map((x) => x.ranks), ['1', '2', '3', '4-5', '6-10', 'unlisted']);
    assert.deepEqual(g.map((x) => x.truth_share), [0.25, 0.25, 0, 0, 0.25, 0.25]);
    assert.ok(Math.abs(g[3]!.expected_share - 0.03) < 1e-12);
    assert.ok(Math.abs(g[3]!.mean_p - 0.015) < 1e-12);
    assert.ok(Math.abs(g[4]!.expected_share - 0.019) < 1e-12);
    // 1 − Σ listed = 0.001 left to 2 unlisted diseases.
    assert.ok(Math.abs(g[5]!.expected_share - 0.001) < 1e-12);
    assert.ok(Math.abs(g[5]!.mean_p - 0.0005) < 1e-12);
    assert.deepEqual(rankReliability([]), []);
  });

  it('a short list counts what it has; the metrics carry the groups for served differentials', () => {
    const cases = [probabilityCase([{ diseaseId: 'a', p: 0.8 }, { diseaseId: 'b', p: 0.15 }], 'b', 5), probabilityCase([{ diseaseId: 'a', p: 0.9 }, { diseaseId: 'b', p: 0.05 }], 'e', 5)];
    const m = calibrationMetrics(cases, { resamples: 10 })!;
    assert.equal(m.by_rank.length, 6);
    assert.equal(m.by_rank[1]!.truth_share, 0.5);
    assert.equal(m.by_rank[5]!.truth_share, 0.5, 'an unlisted truth counts as unlisted');
    assert.equal(m.by_rank[2]!.expected_share, 0, 'no third disease listed: nothing given at rank 3');
    assert.ok(Math.abs(m.by_rank[5]!.expected_share - (0.05 + 0.05) / 2) < 1e-12);
  });
});

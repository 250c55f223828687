import assert from 'node:assert/strict';
import { listedDiseases, MIN_LISTED_P } from '../../src/reasoners/listed-diseases.js';
import { scaledSoftmax } from '../../src/calibration/temperature.js';

describe('listed diseases: the k best and every other at 1% or more (issue 48)', () => {
  it('lists the k best and then only those at 1% or more', () => {
    const scores = [5, 1, 4, -20, 3, -30];
    const probs = scaledSoftmax(scores, 1);
    // p ≈ 0.66, 0.24, 0.09, 0.012 for 0, 2, 4, 1: the last two reach 1%, 3 and 5 do not.
    assert.deepEqual(listedDiseases(scores, probs, 2), [0, 2, 4, 1]);
    assert.equal(listedDiseases(scores, scaledSoftmax(scores, 0.05), 1).length, 6);
    assert.deepEqual(listedDiseases(scores, probs, 6), [0, 2, 4, 1, 3, 5]);
  });

  it('adds every disease at 1% or more beyond k, in score order, so an unlisted one is under 1%', () => {
    // A flat posterior over 40 diseases: each 2.5%, all listed though k is 10.
    const scores = Array.from({ length: 40 }, (_, i) => -i * 1e-3);
    const probs = scaledSoftmax(scores, 1);
    const listed = listedDiseases(scores, probs, 10);
    assert.equal(listed.length, 40);
    assert.deepEqual(listed, [...listed].sort((a, b) => scores[b]! - scores[a]!));
    // 200 diseases: about 0.5% each, so only the k best.
    const many = Array.from({ length: 200 }, (_, i) => -i * 1e-3);
    const manyP = scaledSoftmax(many, 1);
    const few = listedDiseases(many, manyP, 10);
    assert.equal(few.length, 10);
    for (let d = 0; d < 200; d++) if (!few.includes(d)) assert.ok(manyP[d]! < MIN_LISTED_P);
  });
});

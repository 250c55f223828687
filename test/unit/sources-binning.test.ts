import { strict as assert } from 'node:assert';
import { binByInterpretation, binByRange, binByTertiles, tertileBounds } from '../../src/sources/binning/bins.js';
import { percentileCont, TertileCollector } from '../../src/sources/binning/tertiles.js';
import { binConcepts } from '../../src/sources/binning/bin-concepts.js';

describe('numeric binning (src/sources/binning)', () => {
  it('bins by the reference range: below low, above high, inside (bounds inclusive), one-sided ranges', () => {
    const r = { low: 4.5, high: 11 };
    assert.deepEqual([3, 4.5, 8, 11, 11.1].map((v) => binByRange(v, r)?.code), ['L', 'N', 'N', 'N', 'H']);
    assert.equal(binByRange(0.5, { low: null, high: 0.04 })?.code, 'H');
    assert.equal(binByRange(0.01, { low: null, high: 0.04 })?.code, 'N');
    assert.equal(binByRange(5, { low: null, high: null }), null, 'no range: the caller falls back');
    assert.equal(binByRange(20, r)?.label, 'high');
  });

  it('maps HL7 interpretation codes onto the same three bins and refuses directionless ones', () => {
    assert.deepEqual(['L', 'LL', 'N', 'H', 'HH', 'hh'].map((c) => binByInterpretation(c)?.code), ['L', 'L', 'N', 'H', 'H', 'H']);
    assert.equal(binByInterpretation('A'), null);
    assert.equal(binByInterpretation('POS'), null);
  });

  it('computes percentiles as PostgreSQL percentile_cont does (linear between closest ranks)', () => {
    assert.equal(percentileCont([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(percentileCont([10], 0.9), 10);
    assert.ok(Math.abs(percentileCont([1, 2, 3, 4, 5, 6, 7], 1 / 3) - 3) < 1e-12);
    assert.throws(() => percentileCont([], 0.5), RangeError);
  });

  it('tertile bins: three per code whatever the number of distinct values, labelled with the cuts', () => {
    const c = new TertileCollector();
    const values = Array.from({ length: 300 }, (_, i) => 36 + (i % 50) * 0.07);
    for (const v of values) c.add('LOINC:8310-5', v);
    c.add('LOINC:8310-5', Number.NaN); // not a value: ignored, never a bin
    const t = c.tertiles().get('LOINC:8310-5')!;
    assert.ok(t.c1 < t.c2);
    const bins = new Set(values.map((v) => binByTertiles(v, t, 'Cel').code));
    assert.deepEqual([...bins].sort(), ['T1', 'T2', 'T3']);
    const counts = ['T1', 'T2', 'T3'].map((b) => values.filter((v) => binByTertiles(v, t, 'Cel').code === b).length);
    assert.ok(counts.every((n) => n >= 80 && n <= 120), `roughly a third each: ${counts.join(', ')}`);
    assert.match(binByTertiles(40, t, 'Cel').label, /^highest third \(> [\d.]+ Cel\)$/);
    assert.match(binByTertiles(30, t, null).label, /^lowest third \(<= [\d.]+\)$/);
    assert.equal(c.tertiles().has('LOINC:other'), false);
  });
  it('reads a tertile label back into the bounds it was written with, unit included; other labels give null', () => {
    const t = { c1: 88.25, c2: 104.5 };
    const labels = [80, 95, 130].map((v) => binByTertiles(v, t, '/min').label);
    assert.deepEqual(labels.map(tertileBounds), [
      { code: 'T1', low: null, high: 88.25, unit: '/min' },
      { code: 'T2', low: 88.25, high: 104.5, unit: '/min' },
      { code: 'T3', low: 104.5, high: null, unit: '/min' },
    ]);
    assert.deepEqual(tertileBounds(binByTertiles(0.9, { c1: 1.2e-3, c2: 0.75 }, null).label), { code: 'T3', low: 0.75, high: null, unit: null });
    assert.equal(tertileBounds(binByTertiles(0.001, { c1: 1.2e-3, c2: 0.75 }, 'ng/mL').label)?.high, 0.0012);
    assert.equal(tertileBounds('high'), null);
    assert.equal(tertileBounds('lowest third'), null);
  });
  it('a source\'s numeric codes as the bin concepts its records can carry, for the note reader', () => {
    const codes = [
      { key: 'LOINC:8867-4', vocabulary: 'LOINC', name: 'Heart rate', ranged: false, unit: '/min' },
      { key: 'LOINC:2708-6', vocabulary: 'LOINC', name: 'Oxygen saturation', ranged: true, unit: null },
      { key: 'LOINC:5799-2', vocabulary: 'LOINC', name: 'Flat', ranged: false, unit: null },
    ];
    const concepts = binConcepts(codes, new Map([['LOINC:8867-4', { c1: 80, c2: 104 }], ['LOINC:5799-2', { c1: 1, c2: 1 }]]));
    assert.deepEqual(concepts.map((c) => `${c.code}=${c.bin?.valueCode}`), ['LOINC:2708-6=L', 'LOINC:2708-6=N', 'LOINC:2708-6=H', 'LOINC:5799-2=T1', 'LOINC:5799-2=T3', 'LOINC:8867-4=T1', 'LOINC:8867-4=T2', 'LOINC:8867-4=T3']);
    const t3 = concepts.find((c) => c.code === 'LOINC:8867-4' && c.bin?.valueCode === 'T3')!;
    assert.equal(t3.label, `Heart rate: ${binByTertiles(200, { c1: 80, c2: 104 }, '/min').label}`, 'labelled as the records are');
    assert.deepEqual(tertileBounds(t3.bin!.valueText), { code: 'T3', low: 104, high: null, unit: '/min' });
    assert.deepEqual(t3.forms, [], 'a bin is read from measured values only, never by words');
  });
});

import assert from 'node:assert/strict';
import { InputError } from '../../src/errors.js';
import { breakdown, insufficientFlag, insufficientReason, negatedCodes, rankOf, topK } from '../../bench/lib/free-text-score.js';
import { parseVignettes, selectVignettes } from '../../bench/lib/free-text-set.js';
import { TfidfKnn, terms } from '../../bench/lib/tfidf-knn.js';

describe('bench free text: TF-IDF kNN baseline', () => {
  it('terms: lower-cased words of two or more characters, then the bigrams of consecutive words', () => {
    assert.deepEqual(terms('No Cough, a fever!'), ['no', 'cough', 'fever', 'no cough', 'cough fever']);
    assert.deepEqual(terms('x'), []);
  });

  it('cosine of smoothed-idf, L2-normalised rows (worked by hand on two documents)', () => {
    const knn = TfidfKnn.fit([{ text: 'fever cough', label: 'A' }, { text: 'fever rash', label: 'B' }], { k: 2 });
    // n = 2: idf(fever) = ln(3/3) + 1 = 1; idf(cough) = idf(fever cough) = ln(3/2) + 1.
    const rare = Math.log(3 / 2) + 1;
    const want = rare / Math.sqrt(1 + rare * rare + rare * rare);
    const [nb, ...rest] = knn.neighbours('cough');
    assert.equal(nb!.label, 'A');
    assert.ok(Math.abs(nb!.similarity - want) < 1e-12, `${nb!.similarity} vs ${want}`);
    assert.equal(rest.length, 0, 'B shares no term with the query');
  });

  it('sublinear tf: a term said three times weighs 1 + ln 3, not 3', () => {
    const knn = TfidfKnn.fit([{ text: 'cough', label: 'A' }, { text: 'rash', label: 'B' }, { text: 'fever', label: 'C' }], { k: 3 });
    const [a, b] = knn.neighbours('cough cough cough rash');
    // Both terms have the same idf, so the query row is (1 + ln 3, 1) / norm.
    const norm = Math.hypot(1 + Math.log(3), 1);
    assert.equal(a!.label, 'A');
    assert.ok(Math.abs(a!.similarity - (1 + Math.log(3)) / norm) < 1e-12);
    assert.ok(Math.abs(b!.similarity - 1 / norm) < 1e-12);
  });

  it('ranks labels by the summed similarity of the k nearest only', () => {
    const docs = [
      { text: 'chest pain sharp', label: 'X' },
      { text: 'chest pain dull', label: 'X' },
      { text: 'chest pain sharp worse breathing', label: 'Y' },
      { text: 'chest tight', label: 'Y' },
      { text: 'chest', label: 'Y' },
    ];
    const knn = TfidfKnn.fit(docs, { k: 3 });
    const nbs = knn.neighbours('sharp chest pain');
    assert.equal(nbs.length, 3);
    const ranked = knn.rank('sharp chest pain');
    for (const r of ranked) {
      const sum = nbs.filter((n) => n.label === r.label).reduce((s, n) => s + n.similarity, 0);
      assert.ok(Math.abs(r.score - sum) < 1e-12, `${r.label}: ${r.score} vs ${sum}`);
    }
    assert.deepEqual(nbs.map((n) => n.index).slice(0, 1), [0], 'the identical text is nearest');
    assert.ok(ranked.every((r, i) => i === 0 || ranked[i - 1]!.score >= r.score));
  });

  it('a text with no known term gets no ranking; bad k and an empty training set are errors', () => {
    const knn = TfidfKnn.fit([{ text: 'cough', label: 'A' }]);
    assert.deepEqual(knn.rank('asdf qwer'), []);
    assert.throws(() => TfidfKnn.fit([{ text: 'cough', label: 'A' }], { k: 0 }), InputError);
    assert.throws(() => TfidfKnn.fit([]), InputError);
  });
});

describe('bench free text: scoring', () => {
  it('rankOf is 1-based and null when the gold is missing or unknown', () => {
    assert.equal(rankOf(['a', 'b', 'c'], 'b'), 2);
    assert.equal(rankOf(['a'], 'z'), null);
    assert.equal(rankOf(['a'], null), null);
  });

  it('topK shares count unranked cases as misses', () => {
    assert.deepEqual(topK([1, 2, 4, 6, null]), { n: 5, top1: 0.2, top3: 0.4, top5: 0.6 });
    assert.deepEqual(topK([]), { n: 0, top1: 0, top3: 0, top5: 0 });
  });

  it('breakdown counts a case in its style and in every one of its tags', () => {
    const b = breakdown([
      { style: 'lay', tags: ['typo', 'negation'], rank: 1 },
      { style: 'clinician', tags: ['negation'], rank: 4 },
      { style: 'lay', tags: [], rank: null },
    ]);
    assert.equal(b.overall.n, 3);
    assert.deepEqual(b.byStyle.lay, { n: 2, top1: 0.5, top3: 0.5, top5: 0.5 });
    assert.deepEqual(b.byTag.negation, { n: 2, top1: 0.5, top3: 0.5, top5: 1 });
    assert.deepEqual(Object.keys(b.byTag), ['negation', 'typo']);
  });

  it('negatedCodes: negated evidence matched as present (or caught as absent), once per code', () => {
    const codes: Record<string, string | null> = { f1: 'E_91', f2: 'E_91', f3: 'E_201', f4: null, f5: 'E_66' };
    const codeOf = (id: string) => codes[id] ?? null;
    const matches = [
      { featureId: 'f1', polarity: 'present' as const },
      { featureId: 'f2', polarity: 'present' as const },
      { featureId: 'f3', polarity: 'absent' as const },
      { featureId: 'f4', polarity: 'present' as const },
      { featureId: 'f5', polarity: 'present' as const },
    ];
    assert.deepEqual(negatedCodes(matches, codeOf, ['E_91', 'E_201'], 'present'), ['E_91']);
    assert.deepEqual(negatedCodes(matches, codeOf, ['E_91', 'E_201'], 'absent'), ['E_201']);
    assert.deepEqual(negatedCodes(matches, codeOf, [], 'present'), []);
  });

  it('insufficientFlag reads null, a boolean or an explanation object, and null when the field is absent', () => {
    assert.equal(insufficientFlag({}), null);
    assert.equal(insufficientFlag({ insufficient: null }), false, 'the field present but null = not set');
    assert.equal(insufficientFlag({ insufficient: true }), true);
    assert.equal(insufficientFlag({ insufficient: false }), false);
    assert.equal(insufficientFlag({ insufficient: { insufficient: false, reason: 'x' } }), false);
    assert.equal(insufficientFlag({ insufficient: { reason: 'no-finding-matched' } }), true);
    assert.equal(insufficientReason({ insufficient: { reason: 'no-finding-matched', message: 'm' } }), 'no-finding-matched');
    assert.equal(insufficientReason({ insufficient: true }), null);
  });
});

describe('bench free text: vignette file checks', () => {
  const vocab = { conditions: new Set(['Pericarditis', 'URTI']), evidences: new Set(['E_91', 'E_201']) };
  const line = (o: Record<string, unknown> = {}) =>
    JSON.stringify({ id: 'v001', condition: 'Pericarditis', style: 'lay', tags: ['negation'], text: 'sharp chest pain, no cough', age: null, sex: null, absentEvidences: ['E_201'], ...o });

  it('reads valid lines (blank lines skipped)', () => {
    const vs = parseVignettes(`${line()}\n\n${line({ id: 'v002', condition: 'URTI', tags: [], absentEvidences: [] })}\n`, vocab);
    assert.deepEqual(vs.map((v) => v.id), ['v001', 'v002']);
  });

  for (const [what, text, re] of [
    ['bad JSON, with its line', `${line()}\n{oops`, /vignettes:2: not JSON/],
    ['an unknown condition', line({ condition: 'Flu' }), /condition 'Flu' is no key/],
    ['an unknown evidence code', line({ absentEvidences: ['E_9999'] }), /E_9999 not in release_evidences/],
    ['a duplicate id', `${line()}\n${line()}`, /duplicate id v001/],
    ['negated codes without the negation tag', line({ tags: [] }), /no 'negation' tag/],
    ['an unknown field', line({ extra: 1 }), /vignettes:1/],
    ['an unknown tag', line({ tags: ['negation', 'slang'] }), /tags/],
    ['an empty file', '\n', /no vignettes/],
  ] as const) {
    it(`rejects ${what}`, () => assert.throws(() => parseVignettes(text, vocab), (e: unknown) => e instanceof InputError && re.test(e.message)));
  }

  it('--ids keeps the given order and names ids that are not in the set', () => {
    const vs = parseVignettes(`${line()}\n${line({ id: 'v002' })}`, vocab);
    assert.deepEqual(selectVignettes(vs, ['v002', 'v001']).map((v) => v.id), ['v002', 'v001']);
    assert.equal(selectVignettes(vs, null).length, 2);
    assert.throws(() => selectVignettes(vs, ['v001', 'v404']), /no vignette v404/);
  });
});

import assert from 'node:assert/strict';
import { emergentPhrases, formKey, type EmergentPhrase } from '../../src/clinical-text/concepts/emergent-phrases.js';
import type { InputFinding } from '../../src/query/contracts.js';

/**
 * Candidate emergent concepts of a finding no vocabulary read (issue 24): content unigrams and
 * neighbouring pairs as stem keys, none for uncertain or someone else's findings, a relative's
 * findings under the "fh " prefix, and stored forms reading back to their keys.
 */
type F = Pick<InputFinding, 'text' | 'assertion' | 'experiencer'>;
const phrases = (text: string, more: Partial<F> = {}, pairs = true): EmergentPhrase[] => emergentPhrases({ text, ...more }, pairs);
const keys = (text: string, more: Partial<F> = {}, pairs = true): string[] => phrases(text, more, pairs).map((p) => p.key).sort();

describe('concepts emergent-phrases: candidate keys of an unread finding', () => {
  it('gives each content word and each neighbouring pair as stem keys, with the words as written', () => {
    assert.deepEqual(phrases('rebound tenderness'), [
      { key: 'rebound', surface: 'rebound' },
      { key: 'rebound tenderness', surface: 'rebound tenderness' },
      { key: 'tenderness', surface: 'tenderness' },
    ]);
    // Stems, not words: "swollen knees" and "swollen knee" meet on one key; the surface stays as written (lower case).
    const knees = phrases('Swollen Knees');
    assert.deepEqual(knees.map((p) => p.key).sort(), ['knee', 'swollen', 'swollen knee']);
    assert.deepEqual(knees.find((p) => p.key === 'swollen knee')?.surface, 'swollen knees');
    assert.deepEqual(keys('swollen knee'), keys('swollen knees'));
  });

  it('three content words give three unigrams and only the two neighbouring pairs (no skip pair)', () => {
    assert.deepEqual(keys('burning epigastric discomfort'), ['burn', 'burn epigastric', 'discomfort', 'epigastric', 'epigastric discomfort'].sort());
    assert.ok(!keys('burning epigastric discomfort').includes('burn discomfort'));
  });

  it('pairs=false gives the unigrams only', () => {
    assert.deepEqual(keys('rebound tenderness', {}, false), ['rebound', 'tenderness']);
  });

  it('drops stopwords, filler words, numbers and short words', () => {
    // "the", "in", "my" (stopwords); "days", "since", "mild" (filler); "3", "12mm" (numbers); "ok" (too short, lower case).
    assert.deepEqual(keys('the mild pain in my calf since 3 days, 12mm ok'), ['calf', 'pain', 'pain calf'].sort());
    assert.deepEqual(phrases('no more than 2 days ago'), []);
    assert.deepEqual(phrases('42'), []);
    for (const p of phrases('swelling 4 cm over 2 weeks with no redness')) assert.doesNotMatch(p.key, /\d|\bweek|\bwith\b|\bno\b|\bover\b/, p.key);
  });

  it('keeps a two-letter abbreviation written in capitals, not the same letters in lower case', () => {
    assert.ok(keys('RA flare').includes('ra'));
    assert.ok(!keys('ra flare').includes('ra'));
  });

  it('gives no duplicates when a word repeats', () => {
    const ps = phrases('itchy rash, itchy rash');
    assert.equal(new Set(ps.map((p) => p.key)).size, ps.length);
    assert.ok(ps.some((p) => p.key === 'itchy rash'));
  });

  it("a possible or hypothetical finding, or someone other's, gives none", () => {
    assert.ok(phrases('guarding').length > 0, 'the same text read as present gives keys');
    assert.deepEqual(phrases('guarding', { assertion: 'possible' }), []);
    assert.deepEqual(phrases('guarding', { assertion: 'hypothetical' }), []);
    assert.deepEqual(phrases('guarding', { experiencer: 'other' }), []);
  });

  it('an absent finding still gives keys (the caller decides on polarity)', () => {
    assert.deepEqual(keys('guarding', { assertion: 'absent' }), ['guard']);
  });

  it("a relative's finding gets keys (and surfaces) of its own under the \"fh \" prefix", () => {
    const fam = phrases('blood clot', { experiencer: 'family' });
    assert.deepEqual(fam.map((p) => p.key).sort(), ['fh blood', 'fh blood clot', 'fh clot']);
    for (const p of fam) assert.ok(p.surface.startsWith('fh '), p.surface);
    const own = keys('blood clot', { experiencer: 'patient' });
    assert.deepEqual(own, ['blood', 'blood clot', 'clot']);
    for (const k of own) assert.ok(!fam.some((p) => p.key === k), `the patient's key ${k} is not a relative's`);
  });

  it('formKey(surface) gives back the key of the phrase it came from', () => {
    const cases: [string, Partial<F>][] = [
      ['rebound tenderness', {}],
      ['Swollen knees and coughing at night', {}],
      ['tender RLQ, worse walking', {}],
      ['intermittent burning epigastric discomfort after meals', {}],
      ['mother had a blood clot in her legs', { experiencer: 'family' }],
      ['RA flares', {}],
    ];
    let n = 0;
    for (const [text, more] of cases) {
      for (const p of phrases(text, more)) {
        assert.equal(formKey(p.surface), p.key, `${text}: "${p.surface}"`);
        n++;
      }
    }
    assert.ok(n >= 20, `${n} phrases checked`);
  });

  it('formKey keeps the relative prefix apart from a patient form of the same words', () => {
    assert.equal(formKey('fh blood clots'), 'fh blood clot');
    assert.equal(formKey('blood clots'), 'blood clot');
  });

  it('the words after a relief cue are the relief, under their own keys ("relieved by sitting" is no "sitting")', () => {
    assert.deepEqual(keys('relieved by sitting'), ['rb sitt']);
    assert.deepEqual(phrases('relieved by sitting')[0]?.surface, 'relieved by sitting');
    assert.deepEqual(keys('pain while sitting'), ['pain', 'pain sitt', 'sitt'].sort());
    // The words before the cue stay plain, and no pair spans it.
    assert.deepEqual(keys('chest tightness better with rest'), ['chest', 'chest tightness', 'rb rest', 'tightness'].sort());
    assert.ok(keys('goes away with rest').includes('rb rest') && !keys('goes away with rest').includes('rest'));
    // A denied relief is none: "not relieved by rest" is rest pain's words, plainly.
    assert.deepEqual(keys('not relieved by rest'), ['rest']);
    for (const text of ['relieved by sitting forward', 'cramp eased by stretching']) for (const p of phrases(text)) assert.equal(formKey(p.surface), p.key, p.surface);
    assert.equal(formKey('fh relieved by rest'), 'fh rb rest');
  });

  it('a unit is no word of a concept ("Urate 10.4 mg/dL" says urate)', () => {
    assert.deepEqual(keys('Urate 10.4 mg/dL'), ['urat']);
    assert.ok(!keys('BP 150/92 mmHg, HR 94 bpm').some((k) => /mmhg|bpm/.test(k)));
  });
});

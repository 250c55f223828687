import assert from 'node:assert/strict';
import { decompose } from '../../src/clinical-text/decompose.js';
import { shippedReader } from '../support/ddxplus-vocabulary.js';

/**
 * Two readings of session 22 (codes KG dev misses): a note under a setting's heading whose first
 * items name the patient ("Care home note: Mr P, 81, ...") is prose, so its measurements are read;
 * and a site that borrows its clause's head word takes nothing from a denied one ("calf soft and
 * non-tender" is no calf pain).
 */
describe('reading: note headings and denied clause heads (DDXPlus question set with the lexicon)', () => {
  let read: (text: string) => string[];
  before(async () => {
    read = await shippedReader();
  });

  it('"Care home note: Mr P, 81, ...": prose, so "temps 37.8-38.2" is a fever and "weight down 5 kg" a weight loss', () => {
    const got = read('Care home note: Mr P, 81, poor appetite, weight down 5 kg over 2 months, low-grade evening temps 37.8-38.2, productive cough.');
    assert.ok(got.some((x) => /^\+Do you have a fever/.test(x)), got.join(' | '));
    assert.ok(got.some((x) => /^\+Have you had an involuntary weight loss/.test(x)), got.join(' | '));
  });

  it('a rendered question with a list answer is still split into its answers', () => {
    const { findings } = decompose({ text: 'Characterize your pain: sharp, burning', findings: [] });
    assert.deepEqual(findings.map((f) => f.text), ['Characterize your pain: sharp', 'Characterize your pain: burning']);
  });

  it('"calf soft and non-tender": no present calf pain; the denied tenderness stays denied', () => {
    const got = read('R lower leg swelling, calf soft and non-tender.');
    assert.ok(!got.some((x) => x.startsWith('+pain location')), got.join(' | '));
    assert.ok(got.includes('-Do you have pain somewhere, related to your reason for consulting? yes'), got.join(' | '));
    // A present head in the same clause still gives the site its pain.
    const tender = read('R lower leg swelling, calf soft and tender.');
    assert.ok(tender.some((x) => x.startsWith('+pain location: calf')), tender.join(' | '));
  });

  it('"lost 10kg" is "lost 10 kg" (a quantity against its unit is two words)', () => {
    assert.ok(read('lost 10kg without trying').some((x) => /^\+Have you had an involuntary weight loss/.test(x)));
    assert.ok(read('lost 5lbs').some((x) => /^\+Have you had an involuntary weight loss/.test(x)));
  });

  it('"not allergic to fish" denies a food allergy, not having eaten fish', () => {
    const got = read("I'm not allergic to fish.");
    assert.deepEqual(got, ['-Do you have a known severe food allergy? yes']);
  });

  it('"sudden" pain is a fast onset (7-10 of 10, one observation); without a pain word it says nothing of pain', () => {
    const got = read('sudden sharp pain in the chest');
    assert.deepEqual(got.filter((x) => x.startsWith('+pain onset speed')), ['7', '8', '9', '10'].map((v) => `+pain onset speed (0-10): ${v}`));
    assert.ok(!read('sudden complete airway obstruction').some((x) => x.includes('onset speed')));
    assert.ok(read('the pain came on gradually').includes('+pain onset speed (0-10): 2'));
  });

  it('"pain into my back": the back is where the pain goes, not where it is', () => {
    const got = read('dull upper tummy pain into my back');
    assert.ok(got.includes('+pain location: epigastric'), got.join(' | '));
    assert.ok(got.some((x) => x.startsWith('+pain radiates to: thoracic spine')) && !got.some((x) => x.startsWith('+pain location: thoracic spine')), got.join(' | '));
  });
});

describe('a function word is no concept by itself', () => {
  it('"into" matches no one-word form that merely stems like it (HPO "Intoeing"), but a trigger "into" still works', async () => {
    const { conceptIndexFor } = await import('../../src/clinical-text/concepts/concept-index.js');
    const { findMentions } = await import('../../src/clinical-text/concepts/find-mentions.js');
    const { tokenize } = await import('../../src/clinical-text/concepts/normalize.js');
    const { buildSnapshot } = await import('../../src/query/kg-snapshot.js');
    const ev = (canonical: string, forms: string[], triggers: string[] = []) => ({ canonical, forms, abbreviations: [], absentForms: [], context: 'patient' as const, triggers, valueSet: null, values: {}, scale: null });
    const lexicon = { version: 1, provenance: 'test fixture', sites: {}, evidences: { E_1: ev('intoeing', ['intoeing']), E_2: ev('radiation', ['radiation'], ['into']) } };
    const snapshot = buildSnapshot({ categories: [], subcategories: [], diseases: [], manifestations: [], features: ['E_1', 'E_2'].map((code) => ({ id: `feat:${code}`, text: code, kind: 'ehr' as const, code, valueCode: null, question: null, valueText: null, antecedent: null })) });
    const index = conceptIndexFor(snapshot, lexicon);
    const kinds = findMentions(index, tokenize('fell into the pool')).map((m) => `${m.entry.target.kind}:${m.entry.form}`);
    assert.deepEqual(kinds, ['trigger:into']);
    assert.ok(findMentions(index, tokenize('intoeing')).some((m) => m.entry.form === 'intoeing'));
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FeatureNode } from '../../src/domain/kg.js';
import { aggregateHierarchy } from '../../kg-build/aggregate-hierarchy.js';
import { chooseHierarchy, ICD10_AUTO_COVERAGE } from '../../kg-build/hierarchy-choice.js';
import { BLOCKS, CHAPTERS, blockOf, chapterOf } from '../../kg-build/hierarchy-icd10-blocks.js';
import { icd10Category, icd10Hierarchy } from '../../kg-build/hierarchy-icd10.js';
import { conceptNamesFrom, defaultLexiconPath, loadConceptNames } from '../../kg-build/hierarchy-lexicon.js';
import { conceptName, featureConcept, isReadableConcept, nounPhrase } from '../../kg-build/hierarchy-names.js';
import { blockFixture } from '../support/memory-source.js';
import { isClinicalLabel } from '../../src/presentation/voice-checks.js';

const sizes = { subcategories: 'auto', categories: 'auto' } as const;
const coded = (codes: (string | null)[]) => codes.map((icd10) => ({ icd10 }));
/** DDXPlus's own condition codes, as shipped (release_conditions.json). */
const ddxplusCodes = Object.values(JSON.parse(readFileSync('datasets/ddxplus/release_conditions.json', 'utf8')) as Record<string, { 'icd10-id': string }>).map((c) => c['icd10-id']);

const feature = (over: Partial<FeatureNode>): FeatureNode => ({ id: 'feat:x', text: 'x', kind: 'ehr', code: null, valueCode: null, question: null, valueText: null, antecedent: false, ...over });
/** Every DDXPlus evidence as the DDXPlus source renders it: a yes feature per question, a "label: value" one per value. */
const evidences = JSON.parse(readFileSync('datasets/ddxplus/release_evidences.json', 'utf8')) as Record<string, { question_en: string; data_type: string; value_meaning: Record<string, { en: string }> }>;

describe('kg-build hierarchy: mode choice (issue 19)', () => {
  it('auto: ICD-10 when (nearly) every disease has a code, whatever the LLM', () => {
    for (const llmConfigured of [false, true]) {
      const c = chooseHierarchy({ requested: 'auto', diseases: coded(ddxplusCodes), llmConfigured });
      assert.equal(c.mode, 'icd10');
      assert.match(c.reason, new RegExp(`${ddxplusCodes.length}/${ddxplusCodes.length} diseases carry an ICD-10 code`));
    }
  });

  it('auto: LLM topics when codes are missing and a chat model is configured; statistical when neither', () => {
    const few = coded(['J18', null, null, 'I20', null]);
    assert.equal(chooseHierarchy({ requested: 'auto', diseases: few, llmConfigured: true }).mode, 'llm');
    const stat = chooseHierarchy({ requested: 'auto', diseases: few, llmConfigured: false });
    assert.equal(stat.mode, 'statistical');
    assert.match(stat.reason, /only 2\/5 .*no chat model/);
    assert.equal(chooseHierarchy({ requested: 'auto', diseases: [], llmConfigured: false }).mode, 'statistical');
  });

  it('auto: the coverage threshold counts codes that place a disease in a chapter, not any string', () => {
    const n = 20;
    const needed = Math.ceil(n * ICD10_AUTO_COVERAGE);
    const at = coded(Array.from({ length: n }, (_, i) => (i < needed ? 'J18' : null)));
    const below = coded(Array.from({ length: n }, (_, i) => (i < needed - 1 ? 'J18' : i === needed - 1 ? 'not a code' : null)));
    assert.equal(chooseHierarchy({ requested: 'auto', diseases: at, llmConfigured: false }).mode, 'icd10');
    assert.equal(chooseHierarchy({ requested: 'auto', diseases: below, llmConfigured: false }).mode, 'statistical');
  });

  it('an explicit --hierarchy wins over what auto would pick', () => {
    const c = chooseHierarchy({ requested: 'statistical', diseases: coded(ddxplusCodes), llmConfigured: true });
    assert.deepEqual([c.mode, /requested with --hierarchy statistical/.test(c.reason)], ['statistical', true]);
  });

  it('aggregateHierarchy reports the mode it chose and why', async () => {
    const base = blockFixture(2, 3);
    const withCodes = { ...base, diseases: base.diseases.map((d, i) => ({ ...d, icd10: ['J18', 'J11.1', 'I20.0', 'I21', 'K21', 'J45'][i]! })) };
    const h = await aggregateHierarchy(withCodes, { mode: 'auto', sizes });
    assert.equal(h.mode, 'icd10');
    assert.match(h.reason ?? '', /^auto: 6\/6 diseases/);
    const s = await aggregateHierarchy(base, { mode: 'auto', sizes });
    assert.equal(s.mode, 'statistical');
    assert.match(s.reason ?? '', /only 0\/6/);
  });
});

describe('kg-build hierarchy: ICD-10 naming table', () => {
  it('chapters and blocks are well-formed, ordered ranges that do not overlap; every block lies in one chapter', () => {
    for (const list of [CHAPTERS, BLOCKS]) {
      list.forEach((r, i) => {
        assert.match(r.from, /^[A-Z]\d{2}$/);
        assert.ok(r.from <= r.to, `${r.from}-${r.to}`);
        if (i > 0) assert.ok(list[i - 1]!.to < r.from || list === CHAPTERS, `${list[i - 1]!.to} overlaps ${r.from}`);
      });
    }
    for (const b of BLOCKS) assert.equal(chapterOf(b.from)?.roman, chapterOf(b.to)?.roman, `${b.from}-${b.to} spans chapters`);
  });

  it('names every DDXPlus condition by its WHO block and chapter (J09-J18 Influenza and pneumonia, chapter X)', () => {
    for (const code of ddxplusCodes) {
      const cat = icd10Category(code);
      assert.ok(cat && blockOf(cat), `no block for ${code}`);
    }
    assert.deepEqual(blockOf('J11'), { from: 'J09', to: 'J18', title: 'Influenza and pneumonia' });
    assert.equal(chapterOf('J18')?.title, 'Diseases of the respiratory system');
    assert.equal(blockOf('I20')?.title, 'Ischaemic heart diseases');
  });

  it('icd10Hierarchy: block as L2 named "title (range)", chapter as L1; a code outside the table keeps its category; no code -> unclassified', () => {
    const base = blockFixture(1, 5);
    const codes = ['j11.1', 'j17, j18', 'E03.9', 'I20.0', null];
    const input = { ...base, diseases: base.diseases.map((d, i) => ({ ...d, icd10: codes[i]! })) };
    const h = icd10Hierarchy(input);
    const subOf = (i: number) => h.subcategories.find((s) => s.id === h.subcategoryOf.get(input.diseases[i]!.id))!;
    assert.equal(subOf(0).id, subOf(1).id, 'influenza and pneumonia share J09-J18');
    assert.equal(subOf(0).name, 'Influenza and pneumonia (J09-J18)');
    assert.equal(h.categories.find((c) => c.id === subOf(0).categoryId)?.name, 'Diseases of the respiratory system (ICD-10 chapter X)');
    assert.match(subOf(2).name, /^ICD-10 E03: Block 0 disease 2$/);
    assert.equal(subOf(2).categoryId, 'cat:icd10-iv');
    assert.equal(subOf(4).id, 'sub:icd10-unclassified');
  });
});

describe('kg-build hierarchy: statistical group names', () => {
  it('cuts questions down to short noun phrases and refuses what is not one', () => {
    assert.equal(nounPhrase('Do you have a sore throat?'), 'sore throat');
    assert.equal(nounPhrase('Do you have a cough that produces colored or more abundant sputum than usual?'), 'cough');
    assert.equal(nounPhrase('Do you have swollen or painful lymph nodes?'), 'lymph nodes');
    assert.equal(nounPhrase('Have you had chills or shivers?'), 'chills');
    assert.equal(nounPhrase('How intense is the pain?'), null);
    assert.equal(nounPhrase('Do you have any family members who have asthma?'), null);
  });

  it('never names by a question sentence, an ellipsis, a scale value, a negative answer or a long phrase: every DDXPlus feature', () => {
    let named = 0;
    for (const [code, ev] of Object.entries(evidences)) {
      const values = ev.data_type === 'B' ? [['yes', null]] : Object.entries(ev.value_meaning).map(([v, m]) => [m.en, v]);
      for (const [valueText, valueCode] of values.concat(ev.data_type === 'C' ? [['7', '7']] : [])) {
        const f = feature({ code, valueCode: valueCode ?? null, question: ev.question_en, valueText: valueText!, text: `${ev.question_en} ${valueText}` });
        const c = featureConcept(f, null);
        if (c === null) continue;
        named++;
        // A reviewed clinical label (the voice's forms) or a short concept cut from the source.
        assert.ok(isReadableConcept(c.replace(/ \(.*\)$/, '')) || isClinicalLabel(c), `${code}: "${c}"`);
        assert.ok(!/[?]|\.\.\.|…/.test(c) && c.split(/\s+/).length <= 9 && c.length <= 60, `${code}: "${c}"`);
        assert.ok(!/^\d+$/.test(valueText!) || !c.includes(valueText!), `${code}: scale value in "${c}"`);
      }
    }
    assert.ok(named > 100, `only ${named} DDXPlus features give a concept`);
  });

  it('uses the lexicon canonical phrases when there is one, the source label and value otherwise', () => {
    const lexicon = conceptNamesFrom({ sites: { V_1: { canonical: 'lower chest' } }, evidences: { E_55: { canonical: 'pain location', valueSet: 'sites', values: {} }, E_54: { canonical: 'pain character', values: { V_9: { canonical: 'sharp' } } }, E_201: { canonical: 'cough', values: {} } } }, 'inline');
    assert.ok(lexicon.ok);
    const names = lexicon.value;
    const sharp = feature({ code: 'E_54', valueCode: 'V_9', question: 'Characterize your pain:', valueText: 'a knife stroke', text: 'pain character: a knife stroke' });
    assert.equal(featureConcept(sharp, names), 'pain character (sharp)');
    assert.equal(featureConcept(sharp, null), 'pain character (knife stroke)');
    assert.equal(featureConcept(feature({ code: 'E_55', valueCode: 'V_1', valueText: 'lower chest', text: 'pain location: lower chest' }), names), 'pain location (lower chest)');
    assert.equal(featureConcept(feature({ code: 'E_201', question: 'Do you have a cough?', valueText: 'yes', text: 'Do you have a cough? yes' }), names), 'cough');
    assert.equal(conceptNamesFrom({ evidences: { E_1: { values: {} } } }, 'bad.json').ok, false);
  });

  it('with the shipped lexicon, coded features are named by the clinical voice\'s reviewed labels; "NA" names nothing (issue 48)', async () => {
    const loaded = await loadConceptNames(defaultLexiconPath());
    assert.ok(loaded.ok && loaded.value);
    const names = loaded.value;
    const q = (code: string) => evidences[code]!.question_en;
    assert.equal(featureConcept(feature({ code: 'E_55', valueCode: 'V_20', question: q('E_55'), valueText: 'tonsil(R)', text: 'pain location: tonsil(R)' }), names), 'pain at right tonsil');
    assert.equal(featureConcept(feature({ code: 'E_130', valueCode: 'V_156', question: q('E_130'), valueText: 'pink', text: 'rash color: pink' }), names), 'rash colour pink');
    assert.equal(featureConcept(feature({ code: 'E_130', valueCode: 'V_11', question: q('E_130'), valueText: 'NA', text: 'rash color: NA' }), names), null);
    // Two values of one question: one concept (the first), however their labels read.
    const fs = [
      feature({ id: 'a', code: 'E_55', valueCode: 'V_20', question: q('E_55'), valueText: 'tonsil(R)', text: 'pain location: tonsil(R)' }),
      feature({ id: 'b', code: 'E_55', valueCode: 'V_21', question: q('E_55'), valueText: 'tonsil(L)', text: 'pain location: tonsil(L)' }),
      feature({ id: 'c', code: 'E_201', question: q('E_201'), valueText: 'yes', text: `${q('E_201')} yes` }),
    ];
    assert.equal(conceptName(fs, 2, names), 'pain at right tonsil · cough');
  });

  it('a group name joins two concepts of different questions; a taken name gets one more', () => {
    const fs = [
      feature({ id: 'a', question: 'Do you have a cough?', valueText: 'yes' }),
      feature({ id: 'b', text: 'pain location: lower chest', valueText: 'lower chest', code: 'E_55' }),
      feature({ id: 'c', text: 'pain location: breast', valueText: 'breast', code: 'E_55' }),
      feature({ id: 'd', question: 'Do you have a fever (either felt or measured with a thermometer)?', valueText: 'yes' }),
    ];
    assert.equal(conceptName(fs, 2, null), 'cough · pain location (lower chest)');
    assert.equal(conceptName(fs, 2, null, new Set(['cough · pain location (lower chest)'])), 'cough · pain location (lower chest) · fever');
    assert.equal(conceptName([feature({ text: 'itching severity (0-10): 3', valueText: '3' })], 2, null), null);
  });

  it('statistical hierarchy names on the block fixture are short concepts, distinct per subcategory', async () => {
    const h = await aggregateHierarchy(blockFixture(4, 3), { mode: 'statistical', sizes: { subcategories: 4, categories: 2 } });
    const names = h.subcategories.map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
    for (const n of names) for (const part of n.split(' · ')) assert.ok(isReadableConcept(part), n);
  });
});

import { strict as assert } from 'node:assert';
import type { ConditionFact, EventFact, VisitFacts } from '../../src/sources/omop/clinical-facts.js';
import { chooseLabel } from '../../src/sources/omop/label-rule.js';
import { parseOmopUrl } from '../../src/sources/omop/omop-options.js';
import { groupVisits, noteTermOf, type OmopFactRow } from '../../src/sources/omop/omop-rows.js';
import { ageAt, visitToRecord } from '../../src/sources/omop/visit-to-record.js';
import { parseSourceSpec, describeSourceSpec } from '../../src/sources/source-spec.js';

const concept = (vocabulary: string, code: string, name: string) => ({ vocabulary, code, name, conceptId: 2_000_000_000 + Number(code.replace(/\D/g, '').slice(0, 6)) });
const cond = (code: string, name: string, startDate: string, primaryRank = 2, icd10: string | null = null): ConditionFact => ({
  concept: concept('SNOMED', code, name), startDate, primaryRank, icd10, provenance: { origin: `condition_occurrence ${code}`, sourceValue: icd10 },
});
const event = (e: Partial<EventFact> & Pick<EventFact, 'concept' | 'value'>): EventFact => ({ table: 'measurement', provenance: { origin: 'measurement 1', sourceValue: null }, ...e });
const visit = (over: Partial<VisitFacts> = {}): VisitFacts => ({
  visitId: '7', location: 'visit_occurrence 7', startDate: '2024-03-10',
  person: { key: 'person 3', birthDate: { year: 1970, month: 6, day: 15 }, sex: 'F' },
  conditions: [cond('233604007', 'Pneumonia', '2024-03-10', 0, 'J18.9')], history: [], events: [], ...over,
});
const ctx = { idPrefix: 'omop:db', labelRule: 'primary' as const, tertiles: new Map([['LOINC:8310-5', { c1: 37, c2: 38 }]]) };

describe('OMOP source: rules (no database)', () => {
  it('parses omop: URLs: schema and label rule are dxgraph parameters, the rest goes to pg', () => {
    assert.deepEqual(parseOmopUrl('postgres://u@h:5432/db?schema=cdm&label=earliest&sslmode=disable'), { url: 'postgres://u@h:5432/db?sslmode=disable', schema: 'cdm', labelRule: 'earliest' });
    assert.deepEqual(parseOmopUrl('postgresql://u@h/db'), { url: 'postgresql://u@h/db', schema: 'public', labelRule: 'primary' });
    assert.throws(() => parseOmopUrl('postgres://u@h/db?schema=a;drop'), /not a plain SQL identifier/);
    assert.throws(() => parseOmopUrl('mysql://u@h/db'), /needs a postgres/);
    assert.throws(() => parseSourceSpec('omop:postgres://u@h/db', { mapping: 'm.json' }), /--mapping does not apply/);
    assert.equal(describeSourceSpec(parseSourceSpec('omop:postgres://u:secret@h/db?schema=cdm')), 'omop:postgres://u:***@h/db?schema=cdm');
  });

  it('chooses the label: primary by status, then type, then earliest; or earliest only', () => {
    const a = cond('1', 'A', '2024-01-02', 2);
    const b = cond('2', 'B', '2024-01-03', 0);
    const c = cond('3', 'C', '2024-01-01', 1);
    assert.equal(chooseLabel([a, b, c], 'primary'), b);
    assert.equal(chooseLabel([a, c], 'primary'), c);
    assert.equal(chooseLabel([a, b, c], 'earliest'), c);
    assert.equal(chooseLabel([a, cond('4', 'D', '2024-01-02', 2)], 'earliest'), a, 'a full tie keeps the source order');
    assert.equal(chooseLabel([], 'primary'), null);
  });

  it('computes age at the visit from year / month / day of birth (unknown month or day = start of year / month)', () => {
    assert.equal(ageAt({ year: 1970, month: 6, day: 15 }, '2024-06-14'), 53);
    assert.equal(ageAt({ year: 1970, month: 6, day: 15 }, '2024-06-15'), 54);
    assert.equal(ageAt({ year: 1970, month: null, day: null }, '2024-01-01'), 54);
    assert.equal(ageAt({ year: 1970, month: 12, day: null }, '2024-11-30'), 53);
  });

  it('turns a visit into one record: label + ICD-10, history as antecedents, binned numbers, Yes/No as polarity', () => {
    const out = visitToRecord(visit({
      history: [cond('38341003', 'Hypertensive disorder', '2019-01-01')],
      conditions: [cond('233604007', 'Pneumonia', '2024-03-10', 0, 'J18.9'), cond('38341003', 'Hypertensive disorder', '2024-03-10')],
      events: [
        event({ concept: concept('LOINC', '6690-3', 'WBC'), value: { kind: 'number', value: 15.2, unit: '10*3/uL', range: { low: 4.5, high: 11 }, interpretation: null } }),
        event({ concept: concept('LOINC', '8310-5', 'Body temperature'), value: { kind: 'number', value: 38.9, unit: 'Cel', range: { low: null, high: null }, interpretation: null } }),
        event({ table: 'observation', concept: concept('SNOMED', '49727002', 'Cough'), value: { kind: 'concept', concept: concept('SNOMED', '373066001', 'Yes') } }),
        event({ table: 'observation', concept: concept('SNOMED', '386661006', 'Fever'), value: { kind: 'concept', concept: concept('SNOMED', '373067005', 'No') } }),
        event({ concept: concept('LOINC', '5799-2', 'Leukocyte esterase'), value: { kind: 'concept', concept: concept('SNOMED', '10828004', 'Positive') } }),
        event({ concept: concept('LOINC', '1988-5', 'CRP'), value: { kind: 'unparseable' } }),
      ],
    }), ctx);
    assert.ok(out.ok);
    const r = out.value.record;
    assert.deepEqual([r.id, r.diagnosis, r.icd10, r.age, r.sex], ['omop:db:7', 'Pneumonia', 'J18.9', 53, 'F']);
    assert.equal(r.patient, 'omop:db:person 3', 'the visit names its person: the unit of a patient-level split');
    const by = (code: string) => r.findings.filter((f) => f.code === code);
    assert.equal(by('SNOMED:38341003').length, 1, 'history and the same secondary diagnosis are one antecedent');
    assert.equal(by('SNOMED:38341003')[0]!.antecedent, true);
    assert.deepEqual(by('LOINC:6690-3').map((f) => [f.valueCode, f.text, f.answerType]), [['H', 'WBC: high', 'one-of']]);
    assert.equal(by('SNOMED:49727002')[0]?.answerType, 'yes-no');
    assert.deepEqual(by('LOINC:8310-5').map((f) => f.valueCode), ['T3']);
    assert.deepEqual(by('SNOMED:49727002').map((f) => [f.polarity, f.valueCode]), [['present', null]]);
    assert.deepEqual(by('SNOMED:386661006').map((f) => f.polarity), ['absent']);
    assert.deepEqual(by('LOINC:5799-2').map((f) => f.valueCode), ['SNOMED:10828004']);
    assert.equal(by('LOINC:1988-5').length, 0);
    assert.deepEqual(out.value.issues.map((i) => i.problem.category), ['unparseable-value']);
    assert.equal(by('LOINC:6690-3')[0]!.provenance?.vocabulary, 'LOINC');
    assert.match(r.text, /^age: 53\nsex: female\n/);
  });

  it('keeps an age over 89 as 90 with "90+" in the text (ages over 89 are identifiers), as a de-identified note reads', () => {
    const at = (year: number) => {
      const out = visitToRecord(visit({ person: { key: 'person 3', birthDate: { year, month: 6, day: 15 }, sex: 'F' } }), ctx);
      assert.ok(out.ok);
      return [out.value.record.age, out.value.record.text.split('\n')[0]];
    };
    const visitYear = Number(visit({}).startDate.slice(0, 4));
    assert.deepEqual(at(visitYear - 90), [89, 'age: 89'], 'born 90 years before, birthday not yet reached: 89 stays');
    assert.deepEqual(at(visitYear - 91), [90, 'age: 90+']);
    assert.deepEqual(at(visitYear - 104), [90, 'age: 90+'], 'no exact age over 89 in the record or its text');
  });

  it('reports visits without a person, without a condition, or with an impossible age', () => {
    const bad = (v: VisitFacts) => {
      const out = visitToRecord(v, ctx);
      return out.ok ? null : out.error.category;
    };
    assert.equal(bad(visit({ person: null })), 'missing-person');
    assert.equal(bad(visit({ conditions: [] })), 'visit-without-condition');
    assert.equal(bad(visit({ person: { key: 'person 3', birthDate: { year: 2030, month: null, day: null }, sex: null } })), 'bad-age');
    const noBins = visitToRecord(visit({ events: [event({ concept: concept('LOINC', '9999-9', 'X'), value: { kind: 'number', value: 1, unit: null, range: { low: null, high: null }, interpretation: null } })] }), ctx);
    assert.ok(noBins.ok && noBins.value.issues[0]?.problem.category === 'numeric-without-bins');
  });

  it('groups ordered fact rows one visit at a time; facts of an unknown visit and unmapped concepts are reported', async () => {
    const base: OmopFactRow = {
      visit_id: '1', part: 0, row_id: null, start_date: '2024-01-05', person_id: '1', year_of_birth: 1980, month_of_birth: null, day_of_birth: null, gender_concept_id: 8507,
      concept_id: null, vocabulary_id: null, concept_code: null, concept_name: null, raw_concept_id: null, source_value: null, num: null, unit: null, range_low: null, range_high: null,
      value_concept_id: null, value_vocabulary: null, value_code: null, value_name: null, value_text: null, primary_rank: null, icd10: null,
      note_order: null, note_title: null, note_text: null, term_exists: null, term_temporal: null, term_modifiers: null,
    };
    const fact = (over: Partial<OmopFactRow>): OmopFactRow => ({ ...base, person_id: null, year_of_birth: null, gender_concept_id: null, concept_id: 5, vocabulary_id: 'SNOMED', concept_code: '233604007', concept_name: 'Pneumonia', ...over });
    async function* rows() {
      yield base;
      yield fact({ part: 1, row_id: 11, primary_rank: 0, icd10: 'J18.9' });
      yield fact({ part: 3, row_id: 12, concept_id: 0, raw_concept_id: 0, vocabulary_id: null });
      yield fact({ part: 4, row_id: 13, num: null, value_text: 'see note' });
      yield fact({ visit_id: '2', part: 3, row_id: 14 }); // no header row: visit 2 does not exist
      yield { ...base, visit_id: '3', person_id: null, year_of_birth: null };
    }
    const items = [];
    for await (const it of groupVisits(rows())) items.push(it);
    assert.deepEqual(items.map((i) => i.kind), ['visit', 'orphans', 'visit']);
    const v1 = items[0]!.kind === 'visit' ? items[0]! : assert.fail();
    assert.equal(v1.facts.person?.sex, 'M');
    assert.equal(v1.facts.conditions[0]?.icd10, 'J18.9');
    assert.deepEqual(v1.problems.map((p) => p.problem.category), ['unmapped-concept']);
    assert.deepEqual(v1.facts.events.map((e) => e.value.kind), ['unparseable']);
    assert.deepEqual(items[1], { kind: 'orphans', visitId: '2', count: 1 });
    const v3 = items[2];
    assert.equal(v3?.kind === 'visit' ? v3.facts.person : 'x', null, 'a visit without its person is still yielded (reported by the source)');
  });

  it('note_nlp assertions: term_exists N / negation -> absent, past / history -> antecedent; other subjects and unasserted terms reported', () => {
    const term = (term_exists: string | null, term_temporal: string | null = null, term_modifiers: string | null = null) => noteTermOf({ row_id: 9, term_exists, term_temporal, term_modifiers });
    assert.deepEqual(term('Y'), { ok: true, value: { polarity: 'present', past: false } });
    assert.deepEqual(term(null), { ok: true, value: { polarity: 'present', past: false } });
    assert.deepEqual(term('N'), { ok: true, value: { polarity: 'absent', past: false } });
    assert.deepEqual(term('Y', 'past'), { ok: true, value: { polarity: 'present', past: true } });
    assert.deepEqual(term(null, 'present', 'negated=true, subject=patient'), { ok: true, value: { polarity: 'absent', past: false } });
    assert.deepEqual(term('Y', null, 'negated=no,subject=patient,certainty=undef,conditional=false,history=true'), { ok: true, value: { polarity: 'present', past: true } });
    const family = term('N', null, 'negated=no,subject=family,certainty=undef,conditional=false,general=false');
    assert.ok(!family.ok && family.error.category === 'term-not-about-patient', 'a relative\'s rash is not the patient\'s absent rash');
    for (const m of ['conditional=true', 'rule_out=yes', 'certainty=very low']) {
      const r = term('N', null, m);
      assert.ok(!r.ok && r.error.category === 'term-not-asserted', m);
    }
  });

  it('groups notes and note_nlp terms with their visit: terms become findings, notes stay whole and out of the text', async () => {
    const base: OmopFactRow = {
      visit_id: '1', part: 0, row_id: null, start_date: '2024-01-05', person_id: '1', year_of_birth: 1980, month_of_birth: null, day_of_birth: null, gender_concept_id: 8532,
      concept_id: null, vocabulary_id: null, concept_code: null, concept_name: null, raw_concept_id: null, source_value: null, num: null, unit: null, range_low: null, range_high: null,
      value_concept_id: null, value_vocabulary: null, value_code: null, value_name: null, value_text: null, primary_rank: null, icd10: null,
      note_order: null, note_title: null, note_text: null, term_exists: null, term_temporal: null, term_modifiers: null,
    };
    const row = (over: Partial<OmopFactRow>): OmopFactRow => ({ ...base, person_id: null, year_of_birth: null, gender_concept_id: null, ...over });
    const snomed = (id: number, code: string, name: string) => ({ concept_id: id, raw_concept_id: id, vocabulary_id: 'SNOMED', concept_code: code, concept_name: name });
    async function* rows() {
      yield base;
      yield row({ part: 1, row_id: 11, primary_rank: 0, ...snomed(5, '233604007', 'Pneumonia') });
      yield row({ part: 4, row_id: 12, ...snomed(6, '49727002', 'Cough') });
      yield row({ part: 5, row_id: 21, note_order: '2024-01-05', note_title: 'ED note', note_text: 'Jane Roe, 44F. Cough for 3 days, no fever.\nPlan: chest x-ray.' });
      yield row({ part: 5, row_id: 22, note_order: '2024-01-05', note_title: null, note_text: '   ' });
      yield row({ part: 6, row_id: 31, ...snomed(7, '386661006', 'Fever'), source_value: 'fever', term_exists: 'N' });
      yield row({ part: 6, row_id: 32, ...snomed(6, '49727002', 'Cough'), source_value: 'cough', term_exists: 'Y' });
      yield row({ part: 6, row_id: 33, raw_concept_id: 0, source_value: 'night sweats', term_exists: 'Y' });
      yield row({ part: 6, row_id: 34, ...snomed(8, '195967001', 'Asthma'), source_value: 'asthma', term_exists: 'Y', term_temporal: 'past' });
      yield row({ part: 6, row_id: 35, ...snomed(9, '271807003', 'Eruption of skin'), source_value: 'rash', term_exists: 'N', term_modifiers: 'subject=family' });
      yield row({ part: 6, row_id: 36, raw_concept_id: 0, source_value: ' ' });
    }
    const items = [];
    for await (const it of groupVisits(rows())) items.push(it);
    const v = items[0]!.kind === 'visit' ? items[0]! : assert.fail();
    assert.deepEqual(v.facts.notes, [{ origin: 'note 21', title: 'ED note', text: 'Jane Roe, 44F. Cough for 3 days, no fever.\nPlan: chest x-ray.' }]);
    assert.deepEqual(v.problems.map((p) => [p.location, p.problem.category]), [
      ['visit_occurrence 1 note 22', 'empty-note'], ['visit_occurrence 1 note_nlp 35', 'term-not-about-patient'], ['visit_occurrence 1 note_nlp 36', 'unmapped-concept'],
    ]);
    const out = visitToRecord(v.facts, ctx);
    assert.ok(out.ok);
    const r = out.value.record;
    assert.deepEqual(r.notes, v.facts.notes);
    assert.ok(!r.text.includes('Jane') && !r.text.includes('x-ray'), 'the record text carries findings, never the note');
    const nlp = r.findings.filter((f) => f.provenance?.origin.startsWith('note_nlp') || f.code === null);
    assert.deepEqual(nlp.map((f) => [f.text, f.polarity, f.code, f.antecedent]), [
      ['history of Asthma', 'present', 'SNOMED:195967001', true],
      ['Fever: absent', 'absent', 'SNOMED:386661006', false],
      ['night sweat', 'present', null, false],
    ]);
    // A term no concept names is an emergent candidate (stem key, the phrase as its form): it enters the KG only when k patients share it.
    assert.deepEqual(nlp[2]!.concept, { vocabulary: 'emergent-candidate', forms: ['night sweats'] });
    assert.deepEqual(nlp[0]!.provenance, { vocabulary: 'SNOMED', conceptCode: '195967001', conceptId: 8, sourceValue: 'asthma', origin: 'note_nlp 34' });
    assert.deepEqual(r.findings.filter((f) => f.code === 'SNOMED:49727002').map((f) => f.provenance?.origin), ['observation 12'], 'the observation and the NLP term of one concept are one finding');
    const noNotes = visitToRecord({ ...v.facts, notes: [] }, ctx);
    assert.ok(noNotes.ok && !('notes' in noNotes.value.record), 'a visit without notes gives a record without the field');
  });
});

import { CHRONIC, DIAGNOSES, DIPSTICK, LABS, NEGATIVE, NO, OMOP, POSITIVE, SMOKING, SMOKING_STATUS, SYMPTOMS, YES, type Code, type Diagnosis } from './gen-omop-fhir-synthetic.codes.js';
import type { Population, Visit } from './gen-omop-fhir-synthetic.population.js';

/** OMOP CDM v5.4 tables as rows (column -> value; null = empty CSV field = SQL NULL). */
export type Table = { columns: readonly string[]; rows: Array<Record<string, string | number | null>> };

const COLUMNS = {
  person: ['person_id', 'gender_concept_id', 'year_of_birth', 'month_of_birth', 'day_of_birth', 'birth_datetime', 'race_concept_id', 'ethnicity_concept_id', 'location_id', 'provider_id', 'care_site_id', 'person_source_value', 'gender_source_value', 'gender_source_concept_id', 'race_source_value', 'race_source_concept_id', 'ethnicity_source_value', 'ethnicity_source_concept_id'],
  visit_occurrence: ['visit_occurrence_id', 'person_id', 'visit_concept_id', 'visit_start_date', 'visit_start_datetime', 'visit_end_date', 'visit_end_datetime', 'visit_type_concept_id', 'provider_id', 'care_site_id', 'visit_source_value', 'visit_source_concept_id', 'admitted_from_concept_id', 'admitted_from_source_value', 'discharged_to_concept_id', 'discharged_to_source_value', 'preceding_visit_occurrence_id'],
  condition_occurrence: ['condition_occurrence_id', 'person_id', 'condition_concept_id', 'condition_start_date', 'condition_start_datetime', 'condition_end_date', 'condition_end_datetime', 'condition_type_concept_id', 'condition_status_concept_id', 'stop_reason', 'provider_id', 'visit_occurrence_id', 'visit_detail_id', 'condition_source_value', 'condition_source_concept_id', 'condition_status_source_value'],
  measurement: ['measurement_id', 'person_id', 'measurement_concept_id', 'measurement_date', 'measurement_datetime', 'measurement_time', 'measurement_type_concept_id', 'operator_concept_id', 'value_as_number', 'value_as_concept_id', 'unit_concept_id', 'range_low', 'range_high', 'provider_id', 'visit_occurrence_id', 'visit_detail_id', 'measurement_source_value', 'measurement_source_concept_id', 'unit_source_value', 'unit_source_concept_id', 'value_source_value', 'measurement_event_id', 'meas_event_field_concept_id'],
  observation: ['observation_id', 'person_id', 'observation_concept_id', 'observation_date', 'observation_datetime', 'observation_type_concept_id', 'value_as_number', 'value_as_string', 'value_as_concept_id', 'qualifier_concept_id', 'unit_concept_id', 'provider_id', 'visit_occurrence_id', 'visit_detail_id', 'observation_source_value', 'observation_source_concept_id', 'unit_source_value', 'qualifier_source_value', 'value_source_value', 'observation_event_id', 'obs_event_field_concept_id'],
  concept: ['concept_id', 'concept_name', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept', 'concept_code', 'valid_start_date', 'valid_end_date', 'invalid_reason'],
  concept_relationship: ['concept_id_1', 'concept_id_2', 'relationship_id', 'valid_start_date', 'valid_end_date', 'invalid_reason'],
} as const;

export type TableName = keyof typeof COLUMNS;

/** The vocabulary slice: every concept the facts name, ids in the local range, fixed order. */
class Concepts {
  private readonly ids = new Map<string, number>();
  readonly rows: Table['rows'] = [];
  readonly relationships: Table['rows'] = [];

  add(c: Code, domain: string, cls: string, standard: 'S' | null, fixedId?: number): void {
    const key = `${c.vocabulary}:${c.code}`;
    if (this.ids.has(key)) return;
    const id = fixedId ?? 2_000_000_001 + this.ids.size;
    this.ids.set(key, id);
    this.rows.push({ concept_id: id, concept_name: c.name, domain_id: domain, vocabulary_id: c.vocabulary, concept_class_id: cls, standard_concept: standard, concept_code: c.code, valid_start_date: '1970-01-01', valid_end_date: '2099-12-31', invalid_reason: null });
  }

  id(c: Code): number {
    const id = this.ids.get(`${c.vocabulary}:${c.code}`);
    if (id === undefined) throw new Error(`concept ${c.vocabulary}:${c.code} not registered`);
    return id;
  }

  mapsTo(source: Code, standard: Code): void {
    const base = { valid_start_date: '1970-01-01', valid_end_date: '2099-12-31', invalid_reason: null };
    this.relationships.push({ concept_id_1: this.id(source), concept_id_2: this.id(standard), relationship_id: 'Maps to', ...base });
    this.relationships.push({ concept_id_1: this.id(standard), concept_id_2: this.id(source), relationship_id: 'Mapped from', ...base });
  }
}

function vocabulary(): Concepts {
  const c = new Concepts();
  c.add(YES, 'Meas Value', 'Qualifier Value', 'S', OMOP.yes);
  c.add(NO, 'Meas Value', 'Qualifier Value', 'S', OMOP.no);
  for (const d of [...Object.values(DIAGNOSES), ...Object.values(CHRONIC)] as Diagnosis[]) {
    c.add(d.snomed, 'Condition', 'Clinical Finding', 'S');
    c.add(d.icd10, 'Condition', 'ICD10 code', null);
    c.mapsTo(d.icd10, d.snomed);
  }
  for (const s of Object.values(SYMPTOMS)) c.add(s, 'Observation', 'Clinical Finding', 'S');
  for (const l of Object.values(LABS)) {
    c.add(l.code, 'Measurement', 'Lab Test', 'S');
    c.add(l.unit, 'Unit', 'Unit', 'S');
  }
  for (const d of Object.values(DIPSTICK)) c.add(d, 'Measurement', 'Lab Test', 'S');
  c.add(POSITIVE, 'Meas Value', 'Qualifier Value', 'S');
  c.add(NEGATIVE, 'Meas Value', 'Qualifier Value', 'S');
  c.add(SMOKING_STATUS, 'Observation', 'Clinical Observation', 'S');
  for (const s of Object.values(SMOKING)) c.add(s, 'Observation', 'Context-dependent', 'S');
  return c;
}

const empty = (columns: readonly string[], row: Record<string, string | number | null>): Record<string, string | number | null> =>
  Object.fromEntries(columns.map((k) => [k, row[k] ?? null]));

export function omopTables(pop: Population): Record<TableName, Table> {
  const v = vocabulary();
  const t = Object.fromEntries(Object.entries(COLUMNS).map(([k, columns]): [string, Table] => [k, { columns, rows: [] }])) as Record<TableName, Table>;
  const push = (name: TableName, row: Record<string, string | number | null>): void => void t[name].rows.push(empty(COLUMNS[name], row));
  let conditionId = 0;
  let measurementId = 0;
  let observationId = 0;
  const condition = (personId: number, d: Diagnosis, date: string, visitId: number | null, status: number | null): void => {
    conditionId++;
    // Every other condition carries its ICD-10-CM source concept; the rest leave the source
    // concept 0, so the ICD-10 code must come through concept_relationship 'Maps to'.
    push('condition_occurrence', {
      condition_occurrence_id: conditionId, person_id: personId, condition_concept_id: v.id(d.snomed), condition_start_date: date,
      condition_type_concept_id: OMOP.ehr, condition_status_concept_id: status, visit_occurrence_id: visitId,
      condition_source_value: d.icd10.code, condition_source_concept_id: conditionId % 2 === 0 ? v.id(d.icd10) : 0,
    });
  };
  const measurement = (personId: number, visitId: number | null, date: string, code: Code, fields: Record<string, string | number | null>): void => {
    push('measurement', { measurement_id: ++measurementId, person_id: personId, measurement_concept_id: v.id(code), measurement_date: date, measurement_type_concept_id: OMOP.ehr, visit_occurrence_id: visitId, measurement_source_value: code.code, ...fields });
  };
  const observation = (personId: number, visitId: number, date: string, code: Code, value: Code): void => {
    push('observation', { observation_id: ++observationId, person_id: personId, observation_concept_id: v.id(code), observation_date: date, observation_type_concept_id: OMOP.ehr, value_as_concept_id: v.id(value), visit_occurrence_id: visitId, observation_source_value: code.code, value_source_value: value.name });
  };
  const visit = (x: Visit): void => {
    push('visit_occurrence', {
      visit_occurrence_id: x.id, person_id: x.personId, visit_concept_id: OMOP[x.kind], visit_start_date: x.date, visit_end_date: x.date,
      visit_type_concept_id: OMOP.ehr, visit_source_value: x.kind,
    });
    if (x.diagnosis !== null) condition(x.personId, DIAGNOSES[x.diagnosis], x.date, x.id, OMOP.primary);
    if (x.secondary !== null) condition(x.personId, CHRONIC[x.secondary], x.date, x.id, OMOP.secondary);
    for (const s of x.symptoms) observation(x.personId, x.id, x.date, SYMPTOMS[s.key], s.present ? YES : NO);
    if (x.smoking !== null) observation(x.personId, x.id, x.date, SMOKING_STATUS, SMOKING[x.smoking]);
    for (const l of x.labs) {
      const lab = LABS[l.key];
      const range: Record<string, number> = lab.range === null ? {} : { range_low: lab.range.low, range_high: lab.range.high };
      const value: Record<string, string | number> = l.value === 'unreadable' ? { value_source_value: 'see comment' } : { value_as_number: l.value, value_source_value: String(l.value) };
      measurement(x.personId, x.id, x.date, lab.code, { ...value, ...range, unit_concept_id: v.id(lab.unit), unit_source_value: lab.unit.code });
    }
    if (x.dipstick !== null) {
      for (const [key, positive] of Object.entries(x.dipstick) as Array<[keyof typeof DIPSTICK, boolean]>) {
        const result = positive ? POSITIVE : NEGATIVE;
        measurement(x.personId, x.id, x.date, DIPSTICK[key], { value_as_concept_id: v.id(result), value_source_value: result.name });
      }
    }
  };
  for (const p of pop.persons) {
    push('person', {
      person_id: p.id, gender_concept_id: p.sex === 'M' ? OMOP.male : OMOP.female, year_of_birth: p.birth.year, month_of_birth: p.birth.month, day_of_birth: p.birth.day,
      race_concept_id: 0, ethnicity_concept_id: 0, person_source_value: `synthetic-${p.id}`, gender_source_value: p.sex,
    });
    for (const c of p.chronic) condition(p.id, CHRONIC[c.key], c.onset, null, null);
    for (const x of p.visits) visit(x);
  }
  visit(pop.orphanVisit);
  const lab = LABS[pop.looseLab.key];
  measurement(pop.looseLab.personId, null, pop.looseLab.date, lab.code, { value_as_number: pop.looseLab.value, unit_concept_id: v.id(lab.unit), unit_source_value: lab.unit.code });
  t.concept.rows.push(...v.rows);
  t.concept_relationship.rows.push(...v.relationships);
  return t;
}

import type { Condition, Observation, Patient, Resource } from '@medplum/fhirtypes';
import pg from 'pg';
import { systemOf } from '../../src/sources/fhir/fhir-codes.js';

/**
 * One OMOP visit as the FHIR chart an EHR would send in a CDS Hooks prefetch: the person as a
 * Patient, the visit's measurements and observations as Observations of its Encounter (with
 * their standard codings, values, units and reference ranges), and every condition of the
 * person up to the visit as Conditions (the visit's own ones carry its Encounter: they are the
 * diagnosis the hook must not use as evidence). Codings keep OMOP's vocabulary and concept
 * code, so the chart and the OMOP build name the same concepts.
 */
export interface OmopChart {
  patientId: string;
  encounterId: string;
  resources: Resource[];
  /** Conditions recorded at this visit (the answer). */
  visitConditions: number;
}

const GENDER: Readonly<Record<number, Patient['gender']>> = { 8507: 'male', 8532: 'female' };
const coding = (vocabulary: string, code: string, display: string) => ({ coding: [{ system: systemOf(vocabulary), code, display }], text: display });
const pad = (n: number | null) => String(n ?? 1).padStart(2, '0');

export async function omopVisitChart(url: string, schema: string, visitId: string): Promise<OmopChart> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const t = (name: string) => `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
    const visit = (await client.query(`SELECT v.person_id::text AS person, v.visit_start_date::text AS start, p.year_of_birth, p.month_of_birth, p.day_of_birth, p.gender_concept_id
      FROM ${t('visit_occurrence')} v JOIN ${t('person')} p ON p.person_id = v.person_id WHERE v.visit_occurrence_id = $1`, [visitId])).rows[0];
    if (!visit) throw new Error(`no visit ${visitId} in ${schema}`);
    const patientId = `omop-${visit.person}`;
    const subject = { reference: `Patient/${patientId}` };
    const encounter = { reference: `Encounter/${visitId}` };
    const patient: Patient = { resourceType: 'Patient', id: patientId, birthDate: `${visit.year_of_birth}-${pad(visit.month_of_birth)}-${pad(visit.day_of_birth)}`, ...(GENDER[visit.gender_concept_id] ? { gender: GENDER[visit.gender_concept_id] } : {}) };
    const conditions = (await client.query(`SELECT co.condition_occurrence_id::text AS id, co.visit_occurrence_id::text AS visit, co.condition_start_date::text AS start, c.vocabulary_id, c.concept_code, c.concept_name
      FROM ${t('condition_occurrence')} co JOIN ${t('concept')} c ON c.concept_id = co.condition_concept_id
      WHERE co.person_id = $1 AND co.condition_start_date <= $2::date ORDER BY co.condition_occurrence_id`, [visit.person, visit.start])).rows;
    const events = (await client.query(`
      SELECT 'm' || m.measurement_id AS id, 'laboratory' AS category, c.vocabulary_id, c.concept_code, c.concept_name, m.value_as_number::float8 AS num,
        COALESCE(u.concept_code, m.unit_source_value) AS unit, m.range_low::float8 AS low, m.range_high::float8 AS high, vc.vocabulary_id AS vvoc, vc.concept_code AS vcode, vc.concept_name AS vname
      FROM ${t('measurement')} m JOIN ${t('concept')} c ON c.concept_id = m.measurement_concept_id
      LEFT JOIN ${t('concept')} u ON u.concept_id = NULLIF(m.unit_concept_id, 0) LEFT JOIN ${t('concept')} vc ON vc.concept_id = NULLIF(m.value_as_concept_id, 0)
      WHERE m.visit_occurrence_id = $1
      UNION ALL
      SELECT 'o' || o.observation_id, 'exam', c.vocabulary_id, c.concept_code, c.concept_name, o.value_as_number::float8,
        COALESCE(u.concept_code, o.unit_source_value), NULL, NULL, vc.vocabulary_id, vc.concept_code, vc.concept_name
      FROM ${t('observation')} o JOIN ${t('concept')} c ON c.concept_id = o.observation_concept_id
      LEFT JOIN ${t('concept')} u ON u.concept_id = NULLIF(o.unit_concept_id, 0) LEFT JOIN ${t('concept')} vc ON vc.concept_id = NULLIF(o.value_as_concept_id, 0)
      WHERE o.visit_occurrence_id = $1 ORDER BY 1`, [visitId])).rows;
    const resources: Resource[] = [patient];
    for (const c of conditions) {
      resources.push({ resourceType: 'Condition', id: `omop-${c.id}`, subject, ...(c.visit ? { encounter: { reference: `Encounter/${c.visit}` } } : {}), onsetDateTime: c.start, code: coding(c.vocabulary_id, c.concept_code, c.concept_name) } as Condition);
    }
    for (const e of events) {
      const value = e.num !== null
        ? { valueQuantity: { value: e.num, ...(e.unit ? { unit: e.unit, code: e.unit } : {}) }, ...(e.low !== null || e.high !== null ? { referenceRange: [{ ...(e.low !== null ? { low: { value: e.low } } : {}), ...(e.high !== null ? { high: { value: e.high } } : {}) }] } : {}) }
        : e.vcode ? { valueCodeableConcept: coding(e.vvoc, e.vcode, e.vname) } : {};
      resources.push({ resourceType: 'Observation', id: `omop-${e.id}`, status: 'final', subject, encounter, category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: e.category }] }], code: coding(e.vocabulary_id, e.concept_code, e.concept_name), ...value } as Observation);
    }
    return { patientId, encounterId: visitId, resources, visitConditions: conditions.filter((c) => c.visit === visitId).length };
  } finally {
    await client.end();
  }
}

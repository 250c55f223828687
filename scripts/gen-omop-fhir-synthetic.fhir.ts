import { createHash } from 'node:crypto';
import type { Bundle, BundleEntry, CodeableConcept, Condition, Encounter, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { CHRONIC, DIAGNOSES, DIPSTICK, LABS, NEGATIVE, POSITIVE, SMOKING, SMOKING_STATUS, SYMPTOMS, SYSTEM, type Code, type Diagnosis, type LabKey } from './gen-omop-fhir-synthetic.codes.js';
import type { Person, Population, Visit } from './gen-omop-fhir-synthetic.population.js';

/** The same population as FHIR R4 resources: per patient, plus the unlinked bad rows. */
export interface FhirSet {
  byPatient: Array<{ patientId: string; resources: Resource[] }>;
  unlinked: Resource[];
}

const concept = (...codes: Code[]): CodeableConcept => ({ coding: codes.map((c) => ({ system: SYSTEM[c.vocabulary], code: c.code, display: c.name })) });
const category = (system: string, code: string): CodeableConcept[] => [{ coding: [{ system, code }] }];
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ENCOUNTER_CLASS = { inpatient: 'IMP', outpatient: 'AMB', emergency: 'EMER' } as const;

export function fhirResources(pop: Population): FhirSet {
  // Ids follow the OMOP rows' order (condition_occurrence_id, measurement_id, observation_id).
  let conditionId = 0;
  let measurementId = 0;
  let observationId = 0;
  const condition = (patient: string, d: Diagnosis, date: string, encounter: string | null): Condition => ({
    resourceType: 'Condition', id: `c${++conditionId}`,
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    category: category(CONDITION_CATEGORY, encounter === null ? 'problem-list-item' : 'encounter-diagnosis'),
    code: { ...concept(d.snomed, d.icd10), text: d.icd10.code },
    subject: { reference: `Patient/${patient}` },
    ...(encounter === null ? {} : { encounter: { reference: `Encounter/${encounter}` } }),
    onsetDateTime: date, recordedDate: date,
  });
  const observation = (patient: string, encounter: string | null, date: string, kind: 'lab' | 'obs', fields: Partial<Observation> & Pick<Observation, 'code'>): Observation => ({
    resourceType: 'Observation', id: kind === 'lab' ? `m${++measurementId}` : `o${++observationId}`, status: 'final',
    subject: { reference: `Patient/${patient}` }, ...(encounter === null ? {} : { encounter: { reference: `Encounter/${encounter}` } }),
    effectiveDateTime: `${date}T09:30:00Z`, ...fields,
  });
  const quantity = (key: LabKey, value: number) => {
    const lab = LABS[key];
    const q = (v: number) => ({ value: v, unit: lab.unit.code, system: SYSTEM.UCUM, code: lab.unit.code });
    if (lab.range === null) return { valueQuantity: q(value) };
    const flag = value < lab.range.low ? 'L' : value > lab.range.high ? 'H' : 'N';
    return { valueQuantity: q(value), referenceRange: [{ low: q(lab.range.low), high: q(lab.range.high) }], interpretation: [{ coding: [{ system: INTERPRETATION, code: flag }] }] };
  };
  const visitResources = (x: Visit, patient: string): Resource[] => {
    const enc = `e${x.id}`;
    const out: Resource[] = [];
    const diagnosis: NonNullable<Encounter['diagnosis']> = [];
    if (x.diagnosis !== null) {
      const c = condition(patient, DIAGNOSES[x.diagnosis], x.date, enc);
      diagnosis.push({ condition: { reference: `Condition/${c.id}` }, rank: 1 });
      out.push(c);
    }
    if (x.secondary !== null) {
      const c = condition(patient, CHRONIC[x.secondary], x.date, enc);
      diagnosis.push({ condition: { reference: `Condition/${c.id}` }, rank: 2 });
      out.push(c);
    }
    const encounter: Encounter = {
      resourceType: 'Encounter', id: enc, status: 'finished', class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: ENCOUNTER_CLASS[x.kind] },
      subject: { reference: `Patient/${patient}` }, period: { start: `${x.date}T09:00:00Z`, end: `${x.date}T17:00:00Z` }, ...(diagnosis.length > 0 ? { diagnosis } : {}),
    };
    for (const s of x.symptoms) out.push(observation(patient, enc, x.date, 'obs', { category: category(OBSERVATION_CATEGORY, 'exam'), code: concept(SYMPTOMS[s.key]), valueBoolean: s.present }));
    if (x.smoking !== null) out.push(observation(patient, enc, x.date, 'obs', { category: category(OBSERVATION_CATEGORY, 'social-history'), code: concept(SMOKING_STATUS), valueCodeableConcept: concept(SMOKING[x.smoking]) }));
    for (const l of x.labs) {
      const lab = LABS[l.key];
      const cat = category(OBSERVATION_CATEGORY, lab.range === null ? 'vital-signs' : 'laboratory');
      out.push(observation(patient, enc, x.date, 'lab', { category: cat, code: concept(lab.code), ...(l.value === 'unreadable' ? { valueString: 'see comment' } : quantity(l.key, l.value)) }));
    }
    if (x.dipstick !== null) {
      for (const [key, positive] of Object.entries(x.dipstick) as Array<[keyof typeof DIPSTICK, boolean]>) {
        out.push(observation(patient, enc, x.date, 'lab', { category: category(OBSERVATION_CATEGORY, 'laboratory'), code: concept(DIPSTICK[key]), valueCodeableConcept: concept(positive ? POSITIVE : NEGATIVE) }));
      }
    }
    return [encounter, ...out];
  };
  const patientResources = (p: Person): Resource[] => {
    const id = `p${p.id}`;
    const birthDate = p.birth.month === null ? String(p.birth.year) : `${p.birth.year}-${String(p.birth.month).padStart(2, '0')}-${String(p.birth.day).padStart(2, '0')}`;
    const patient: Patient = { resourceType: 'Patient', id, gender: p.sex === 'M' ? 'male' : 'female', birthDate };
    return [patient, ...p.chronic.map((c) => condition(id, CHRONIC[c.key], c.onset, null)), ...p.visits.flatMap((x) => visitResources(x, id))];
  };
  const byPatient = pop.persons.map((p) => ({ patientId: `p${p.id}`, resources: patientResources(p) }));
  const unlinked = visitResources(pop.orphanVisit, `p${pop.orphanVisit.personId}`);
  const loose = pop.looseLab;
  unlinked.push(observation(`p${loose.personId}`, null, loose.date, 'lab', { category: category(OBSERVATION_CATEGORY, 'vital-signs'), code: concept(LABS[loose.key].code), ...quantity(loose.key, loose.value) }));
  return { byPatient, unlinked };
}

const uuidOf = (s: string): string => {
  const h = createHash('sha256').update(s).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * A bundle of one patient's resources. A transaction bundle names its entries by urn:uuid
 * fullUrls and its references point at those, as FHIR servers' transaction input does.
 */
export function bundleOf(resources: Resource[], type: 'collection' | 'transaction'): Bundle {
  if (type === 'collection') return { resourceType: 'Bundle', type, entry: resources.map((resource) => ({ fullUrl: `https://synthetic.example/fhir/${resource.resourceType}/${resource.id}`, resource })) };
  const urn = new Map(resources.map((r) => [`${r.resourceType}/${r.id}`, `urn:uuid:${uuidOf(`${r.resourceType}/${r.id}`)}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'reference' && typeof v === 'string' ? (urn.get(v) ?? v) : rewrite(v)]));
  };
  const entry: BundleEntry[] = resources.map((r) => ({
    fullUrl: urn.get(`${r.resourceType}/${r.id}`)!,
    resource: rewrite(r) as Resource,
    request: { method: 'PUT', url: `${r.resourceType}/${r.id}` },
  }));
  return { resourceType: 'Bundle', type, entry };
}

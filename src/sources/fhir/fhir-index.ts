import type { Condition, DiagnosticReport, DocumentReference, Encounter, Observation, Patient } from '@medplum/fhirtypes';
import { TertileCollector } from '../binning/tertiles.js';
import type { ConditionFact, EventFact, FactValue } from '../omop/clinical-facts.js';
import type { RowProblem } from '../row-issues.js';
import { conceptKey } from '../omop/visit-to-record.js';
import { datePart, icd10Of, normalizeReference, preferredConcept } from './fhir-codes.js';
import { diagnosticReportNotes, documentReferenceNotes, type FhirNote, type NoteOutcome } from './fhir-notes.js';

/**
 * What the FHIR source keeps of a directory after its first pass: compact facts (codes,
 * numbers, dates), never the resources themselves. FHIR files are not ordered by encounter,
 * so an encounter's facts can only be assembled once every file has been read.
 */
export interface FhirEncounter {
  id: string;
  location: string;
  patientRef: string | null;
  startDate: string | null;
  /** period.end (YYYY-MM-DD), else the start: a note without an encounter joins the encounter whose period holds its date. */
  endDate: string | null;
  /** Condition reference -> Encounter.diagnosis rank (1 = primary). */
  ranks: Map<string, number>;
}

export interface FhirCondition {
  ref: string;
  patientRef: string | null;
  encounterRef: string | null;
  /** encounter-diagnosis (or no category): label candidate of its encounter; problem-list-item: history. */
  problemList: boolean;
  fact: ConditionFact;
}

export interface FhirIndex {
  patients: Map<string, { birthDate: string | null; sex: 'M' | 'F' | null }>;
  encounters: Map<string, FhirEncounter>;
  conditionsByPatient: Map<string, FhirCondition[]>;
  eventsByEncounter: Map<string, EventFact[]>;
  /** Notes of DocumentReference / DiagnosticReport resources, placed on encounters once every file is read. */
  notes: FhirNote[];
  /** fullUrl (urn:uuid:…) -> "Type/id", for transaction bundles. */
  aliases: Map<string, string>;
  tertiles: TertileCollector;
  problems: Array<{ location: string; problem: RowProblem }>;
}

export const emptyIndex = (): FhirIndex => ({
  patients: new Map(), encounters: new Map(), conditionsByPatient: new Map(), eventsByEncounter: new Map(), notes: [], aliases: new Map(), tertiles: new TertileCollector(), problems: [],
});

const LAB_CATEGORIES = new Set(['laboratory', 'vital-signs']);
const GENDER: Readonly<Record<string, 'M' | 'F'>> = { male: 'M', female: 'F' };

const push = <K, V>(m: Map<K, V[]>, k: K, v: V): void => {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
};

export function addPatient(ix: FhirIndex, p: Patient): void {
  // FHIR birthDate may be YYYY, YYYY-MM or YYYY-MM-DD: kept as given, parsed when the age is computed.
  const birthDate = typeof p.birthDate === 'string' && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(p.birthDate) ? p.birthDate : null;
  ix.patients.set(`Patient/${p.id}`, { birthDate, sex: GENDER[p.gender ?? ''] ?? null });
}

export function addEncounter(ix: FhirIndex, e: Encounter, location: string): void {
  const ranks = new Map<string, number>();
  for (const d of e.diagnosis ?? []) {
    const ref = normalizeReference(d.condition?.reference);
    if (ref !== null && typeof d.rank === 'number') ranks.set(ref, d.rank);
  }
  const startDate = datePart(e.period?.start);
  ix.encounters.set(`Encounter/${e.id}`, { id: String(e.id), location, patientRef: normalizeReference(e.subject?.reference), startDate, endDate: datePart(e.period?.end) ?? startDate, ranks });
}

export function addCondition(ix: FhirIndex, c: Condition, location: string): void {
  const concept = preferredConcept(c.code, ['SNOMED', 'ICD10CM']);
  if (concept === null) {
    ix.problems.push({ location, problem: { category: 'unmapped-concept', reason: 'Condition without a usable coding' } });
    return;
  }
  const patientRef = normalizeReference(c.subject?.reference);
  const categories = (c.category ?? []).flatMap((cc) => (cc.coding ?? []).map((x) => x.code));
  const start = datePart(c.onsetDateTime) ?? datePart(c.onsetPeriod?.start) ?? datePart(c.recordedDate);
  const cond: FhirCondition = {
    ref: `Condition/${c.id}`,
    patientRef,
    encounterRef: normalizeReference(c.encounter?.reference),
    problemList: categories.includes('problem-list-item'),
    fact: { concept, startDate: start ?? '', primaryRank: 2, icd10: icd10Of(c.code), provenance: { origin: `Condition/${c.id}`, sourceValue: c.code?.text ?? null } },
  };
  push(ix.conditionsByPatient, patientRef ?? '', cond);
}

function valueOf(o: Observation): FactValue {
  if (o.valueQuantity !== undefined) {
    const q = o.valueQuantity;
    if (typeof q.value !== 'number' || !Number.isFinite(q.value)) return { kind: 'unparseable' };
    const range = o.referenceRange?.[0];
    const interpretation = o.interpretation?.[0]?.coding?.[0]?.code ?? null;
    return { kind: 'number', value: q.value, unit: q.code ?? q.unit ?? null, range: { low: range?.low?.value ?? null, high: range?.high?.value ?? null }, interpretation };
  }
  if (typeof o.valueInteger === 'number') return { kind: 'number', value: o.valueInteger, unit: null, range: { low: null, high: null }, interpretation: null };
  if (o.valueCodeableConcept !== undefined) {
    const concept = preferredConcept(o.valueCodeableConcept, ['SNOMED', 'LOINC']);
    return concept === null ? { kind: 'unparseable' } : { kind: 'concept', concept };
  }
  if (typeof o.valueBoolean === 'boolean') return { kind: 'boolean', value: o.valueBoolean };
  if (typeof o.valueString === 'string' && o.valueString.trim() !== '') return { kind: 'unparseable' };
  return { kind: 'none' };
}

export function addObservation(ix: FhirIndex, o: Observation, location: string): void {
  const concept = preferredConcept(o.code, ['LOINC', 'SNOMED']);
  if (concept === null) {
    ix.problems.push({ location, problem: { category: 'unmapped-concept', reason: 'Observation without a usable coding' } });
    return;
  }
  const encounterRef = normalizeReference(o.encounter?.reference);
  if (encounterRef === null) {
    ix.problems.push({ location, problem: { category: 'fact-without-visit', reason: 'Observation without an encounter reference' } });
    return;
  }
  const lab = (o.category ?? []).some((cc) => (cc.coding ?? []).some((x) => LAB_CATEGORIES.has(x.code ?? '')));
  const value = valueOf(o);
  // Tertiles over the same values as the OMOP source's first pass: numbers without a reference range.
  if (value.kind === 'number' && value.range.low === null && value.range.high === null) ix.tertiles.add(conceptKey(concept), value.value);
  const origin = `Observation/${o.id}`;
  push(ix.eventsByEncounter, encounterRef, { table: lab ? 'measurement' : 'observation', concept, value, provenance: { origin, sourceValue: o.code?.text ?? null } });
}

function addNotes(ix: FhirIndex, out: NoteOutcome, location: string): void {
  ix.notes.push(...out.notes);
  for (const problem of out.problems) ix.problems.push({ location, problem });
}

export function addDocumentReference(ix: FhirIndex, d: DocumentReference, location: string): void {
  addNotes(ix, documentReferenceNotes(d, location), location);
}

export function addDiagnosticReport(ix: FhirIndex, r: DiagnosticReport, location: string): void {
  addNotes(ix, diagnosticReportNotes(r, location), location);
}

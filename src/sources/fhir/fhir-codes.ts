import type { CodeableConcept, Coding } from '@medplum/fhirtypes';
import type { Concept } from '../omop/clinical-facts.js';

/**
 * FHIR code systems onto OMOP vocabulary ids, so a FHIR coding and the OMOP concept of the
 * same code give the same feature code ("LOINC:6690-3"). Unknown systems keep their URI.
 */
const VOCABULARY: Readonly<Record<string, string>> = {
  'http://snomed.info/sct': 'SNOMED',
  'http://loinc.org': 'LOINC',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD10CM',
  'http://hl7.org/fhir/sid/icd-10': 'ICD10',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
  'http://unitsofmeasure.org': 'UCUM',
};

export const vocabularyOf = (system: string | undefined): string => (system === undefined ? 'unknown' : (VOCABULARY[system] ?? system));

const SYSTEM = new Map(Object.entries(VOCABULARY).map(([system, vocabulary]) => [vocabulary, system]));

/** The FHIR code system of an OMOP vocabulary id (the inverse of vocabularyOf); unknown ones as a URN. */
export const systemOf = (vocabulary: string): string => SYSTEM.get(vocabulary) ?? `urn:omop:vocabulary:${vocabulary}`;

/** The coding to use as the concept: the first of the preferred vocabularies present, else the first coding. */
export function preferredConcept(cc: CodeableConcept | undefined, preferred: readonly string[]): Concept | null {
  const codings = (cc?.coding ?? []).filter((c): c is Coding & { code: string } => typeof c.code === 'string' && c.code.trim() !== '');
  if (codings.length === 0) return null;
  const pick = preferred.map((v) => codings.find((c) => vocabularyOf(c.system) === v)).find((c) => c !== undefined) ?? codings[0]!;
  return { vocabulary: vocabularyOf(pick.system), code: pick.code, name: pick.display ?? cc?.text ?? pick.code, conceptId: null };
}

/** The ICD-10-CM code among a concept's codings (what NormalizedRecord.icd10 carries). */
export function icd10Of(cc: CodeableConcept | undefined): string | null {
  const c = (cc?.coding ?? []).find((x) => vocabularyOf(x.system) === 'ICD10CM' && typeof x.code === 'string');
  return c?.code?.toUpperCase() ?? null;
}

/**
 * "Patient/12", "http://host/fhir/Patient/12", "Patient/12/_history/3" -> "Patient/12";
 * "urn:uuid:…" stays as is (resolved through the bundle's fullUrls). null when unusable.
 */
export function normalizeReference(ref: string | undefined): string | null {
  if (ref === undefined || ref.trim() === '') return null;
  if (ref.startsWith('urn:')) return ref;
  const parts = ref.replace(/\/_history\/[^/]+$/, '').split('/').filter((p) => p !== '');
  return parts.length >= 2 ? `${parts[parts.length - 2]}/${parts[parts.length - 1]}` : null;
}

/** The date part (YYYY-MM-DD) of a FHIR date / dateTime; null when absent or too coarse. */
export function datePart(v: string | undefined): string | null {
  return v !== undefined && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;
}

import type { Polarity, RecordNote } from '../../domain/record.js';
import type { ReferenceRange } from '../binning/bins.js';

/**
 * The OMOP CDM event model one visit is read into. The FHIR source maps its resources onto
 * the same model (as FHIR-to-OMOP ETLs do), so both sources turn facts into records by one
 * rule (visit-to-record.ts) and the same patients give the same KG.
 */

/** A concept: vocabulary + code is the identity (OMOP concept_id is a local surrogate key). */
export interface Concept {
  /** OMOP vocabulary_id spelling: SNOMED, LOINC, ICD10CM, UCUM... */
  vocabulary: string;
  code: string;
  name: string;
  /** OMOP concept_id when the source has one (FHIR: null). */
  conceptId: number | null;
}

/** Where a fact came from, kept on the finding: the source's own spelling of it. */
export interface FactProvenance {
  /** e.g. "measurement 1204" or "Observation/obs-17". */
  origin: string;
  /** *_source_value (OMOP) or the coding's original text (FHIR). */
  sourceValue: string | null;
}

export interface ConditionFact {
  concept: Concept;
  /** ISO date (YYYY-MM-DD) the condition started / was recorded. */
  startDate: string;
  /** Rank of a primary-diagnosis marker: 0 = primary by status, 1 = primary by type, 2 = other. */
  primaryRank: number;
  /** ICD-10-CM code the condition maps to (source concept or 'Maps to'), if any. */
  icd10: string | null;
  provenance: FactProvenance;
}

export type FactValue =
  | { kind: 'none' }
  | { kind: 'number'; value: number; unit: string | null; range: ReferenceRange; interpretation: string | null }
  | { kind: 'concept'; concept: Concept }
  | { kind: 'boolean'; value: boolean }
  /** A value that is there but cannot be read (text where a number belongs): reported, no finding. */
  | { kind: 'unparseable' };

export interface EventFact {
  table: 'measurement' | 'observation';
  concept: Concept;
  value: FactValue;
  provenance: FactProvenance;
}

/**
 * A term an NLP system read from one of the visit's notes (OMOP note_nlp): a finding of the
 * visit like an observation, with the assertion the system gave it.
 */
export interface NoteTerm {
  /** The standard concept; null when the row has none (concept 0 or not in `concept`): the lexical variant is the finding. */
  concept: Concept | null;
  /** The text the system matched (lexical_variant). */
  lexical: string;
  /** term_exists 'N' or a negation modifier: absent, evidence against. */
  polarity: Polarity;
  /** term_temporal 'past' or a history modifier: an antecedent ("history of ..."). */
  past: boolean;
  provenance: FactProvenance;
}

export interface VisitFacts {
  /** Source-local visit id (visit_occurrence_id, Encounter.id). */
  visitId: string;
  /** Where the visit came from, for reports (never patient text). */
  location: string;
  /** null when the visit's person / patient is missing: the visit is reported, not built. */
  person: {
    /** The source's own key of the person (person_id, Patient/<id>): the unit of a patient-level split, never shown. */
    key: string;
    birthDate: { year: number; month: number | null; day: number | null };
    sex: 'M' | 'F' | null;
  } | null;
  /** ISO date the visit started. */
  startDate: string;
  /** Conditions recorded for this visit: the label is chosen among them. */
  conditions: ConditionFact[];
  /** Conditions of the same person that started before the visit: antecedent findings. */
  history: ConditionFact[];
  events: EventFact[];
  /** The visit's clinical notes as the source holds them (OMOP note, FHIR DocumentReference / DiagnosticReport). */
  notes?: RecordNote[];
  /** Terms an NLP system read from those notes (OMOP note_nlp). */
  noteTerms?: NoteTerm[];
}

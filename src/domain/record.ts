/**
 * The one normalized EHR record every source produces and every build stage consumes.
 * Unknown values are `null`, never empty strings, so "missing" is explicit.
 */
export type Polarity = 'present' | 'absent';

/** How a source question is answered: yes/no, one option, several options, or a number. */
export type AnswerType = 'yes-no' | 'one-of' | 'several-of' | 'number';

export interface Finding {
  /** Human-readable finding, e.g. "Where is the pain located? lower chest". */
  text: string;
  /** "absent" for negated findings ("no fever"): evidence against, never dropped. */
  polarity: Polarity;
  /** Source code of the question/field, e.g. DDXPlus evidence code "E_55"; null for free text. */
  code: string | null;
  /** Source code of the answer value, e.g. "V_89"; for numeric answers the number as a string. */
  valueCode: string | null;
  /** The source's question text, e.g. "Where is the pain located?". */
  question: string | null;
  /** The answer's text, e.g. "lower chest". */
  valueText: string | null;
  /** True when the finding is an antecedent / risk factor rather than a symptom; null if unknown. */
  antecedent: boolean | null;
  /**
   * The answer type of the source question this finding answers, when the source declares
   * it (DDXPlus data_type B / C / M); kept on the feature node so consultations ask it right.
   */
  answerType?: AnswerType | null;
  /**
   * The source question this one is asked under, when the source declares one (DDXPlus
   * code_question: "which site?" E_55 under "any pain?" E_53): a present answer implies the
   * parent's yes. Absent/null for top-level questions and sources without such a tree.
   */
  parentCode?: string | null;
  /**
   * Where a finding of a standard-coded source (OMOP, FHIR) came from: the concept behind
   * `code` and the source's own spelling. Absent for the other sources.
   */
  provenance?: FindingProvenance | null;
  /** A concept read from notes: its vocabulary and the surface forms it is read by (FeatureNode.forms). */
  concept?: { vocabulary: string; forms: string[]; xrefs?: string[] } | null;
}

export interface FindingProvenance {
  /** OMOP vocabulary_id of the concept in `code`, e.g. LOINC, SNOMED. */
  vocabulary: string;
  conceptCode: string;
  /** OMOP concept_id (null from FHIR, which has no concept table). */
  conceptId: number | null;
  /** The source row's *_source_value, or the FHIR coding's text; null if none. */
  sourceValue: string | null;
  /** Table/resource and row id, e.g. "measurement 1204", "Observation/obs-17". */
  origin: string;
}

export interface NormalizedRecord {
  /** Stable, source-qualified id: `<source-kind>:<source-name>:<local id>`; never a patient identifier. */
  id: string;
  /**
   * The source-qualified key of the patient the record belongs to (OMOP person_id, FHIR Patient,
   * a mapped patient column), when the source has patients: a train/test split keeps all of a
   * patient's records on one side (src/sources/split.ts). Used for splitting only: never
   * written to the KG, the indexes or a report. Absent/null: each record is its own patient.
   */
  patient?: string | null;
  /** Raw diagnosis string as the source spells it (clustered into a Disease at build time). */
  diagnosis: string;
  /** ICD-10 code of the diagnosis when the source has one. */
  icd10: string | null;
  age: number | null;
  sex: 'M' | 'F' | null;
  findings: Finding[];
  /** The chief complaint's code (DDXPlus INITIAL_EVIDENCE), when known. */
  initialFindingCode: string | null;
  /** Text rendering of the whole record, used for retrieval and as a query in evaluation. */
  text: string;
  /** Where the row came from, e.g. "patients-dev.csv:17". */
  location: string;
  /**
   * The source's own differential, most likely first (DDXPlus DIFFERENTIAL_DIAGNOSIS);
   * null when the source has none. Optional so records built elsewhere stay valid.
   */
  differential?: DifferentialEntry[] | null;
  /**
   * Clinical notes of the record (OMOP `note`, FHIR DocumentReference / DiagnosticReport text,
   * a mapped text column), as the source holds them. The build reads them with the clinical
   * text module (src/clinical-text) into findings, after scrubbing identifiers and leaving out
   * sections that state the diagnosis; the raw text is never stored in the KG. Absent/null:
   * the record has no notes.
   */
  notes?: RecordNote[] | null;
  /**
   * What the record index embeds when it is not `text`: a record with notes is found by what its
   * notes say (identifiers scrubbed, diagnosis sections blanked), as MedRAG retrieves similar EHRs
   * by their content. Only the vector keeps it; records.jsonl, the trace and :Record nodes show
   * `text`. Set by the build's note stage; absent/null: `text` is embedded.
   */
  retrievalText?: string | null;
  /**
   * True when the record lists only what its notes mention (notes and no coded findings): a
   * finding it does not list is unknown, not absent. The build then estimates a coded feature's
   * prevalence over the records that could have shown it (kg-build/decompose-features.ts).
   */
  incomplete?: boolean;
}

export interface RecordNote {
  /** Where the note came from: "note 12", "DocumentReference/dr-1", "column hpi". */
  origin: string;
  /** The note's title or type when the source has one ("Discharge summary", a LOINC display). */
  title: string | null;
  text: string;
}

export interface DifferentialEntry {
  diagnosis: string;
  probability: number;
}

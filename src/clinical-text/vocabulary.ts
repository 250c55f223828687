/**
 * A concept vocabulary the clinical-text module reads findings into (issue 24): the build's
 * own coded concepts (DDXPlus evidences, OMOP/FHIR concepts), an open phenotype vocabulary
 * (HPO) or concepts that emerged from the notes themselves. Vocabularies are data given to
 * the reader, never the reader's design: the same code reads every one.
 */
export interface VocabularyConcept {
  /** Which vocabulary: "DDXPlus", "HPO", "SNOMED", "LOINC", "emergent", ... */
  vocabulary: string;
  /** The concept's code in that vocabulary: "E_91", "HP:0001945", "386661006". */
  code: string;
  /** Its preferred label: "Fever". */
  label: string;
  /** Surface forms that name it (label, exact and layperson synonyms), each as written. */
  forms: string[];
  /** Cross-references into other vocabularies: "SNOMEDCT_US:386661006", "UMLS:C0015967". */
  xrefs: string[];
  /** Codes of its parents in the same vocabulary (is_a). */
  parents: string[];
  /**
   * A source's binned measurement (OMOP measurement, FHIR Observation value): the bin this concept
   * is, as the source's findings carry it (src/sources/binning/bin-concepts.ts). Read from notes by
   * measured values only (concepts/match-measured.ts). Absent: a concept named by its forms.
   */
  bin?: { valueCode: string; valueText: string; question: string };
}

export interface Vocabulary {
  name: string;
  /** Where it came from and whom to credit (shown in the build report and docs). */
  attribution: string;
  concepts: VocabularyConcept[];
}

/**
 * The concept layer's data (issue 17): surface forms that clinicians and patients write,
 * keyed by the KG's source codes. The shipped DDXPlus lexicon (datasets/lexicon/) has this
 * shape; src/clinical-text/concepts/lexicon.ts validates it. Features of other sources get forms derived
 * from their own labels (derive-forms.ts).
 */
export interface LexiconValue {
  canonical: string;
  forms: string[];
}

export interface LexiconSite extends LexiconValue {
  /** Laterality of the site value ("ear(R)" → R); forms carry no side words. */
  side: 'R' | 'L' | null;
}

export type LexiconContext = 'patient' | 'family' | 'history' | 'exposure';

export interface LexiconEvidence {
  canonical: string;
  forms: string[];
  /** Case-sensitive short forms ("SOB", "CP"). */
  abbreviations: string[];
  /** Single words that assert the concept's absence ("afebrile"). */
  absentForms: string[];
  /**
   * Treatments that name the concept when present ("carries an epipen", "on insulin", "inhaler") but
   * deny nothing when absent: "we don't have an epipen" is no denial of the allergy, "diabetic, not on
   * insulin" none of the diabetes.
   */
  treatmentForms?: string[];
  /**
   * Events named without their date ("knee replaced", "tonsillectomy") for a question about a recent
   * window ("surgery within the last month"): read only when the finding says how long ago, within
   * `withinDays`; a procedure years back, or undated, says nothing of the window.
   */
  datedForms?: { withinDays: number; forms: string[] };
  context: LexiconContext;
  /** Head words that select this question for a value (pain / radiating / rash / swelling). */
  triggers: string[];
  valueSet: 'sites' | null;
  values: Record<string, LexiconValue>;
  scale: { min: number; max: number } | null;
}

export interface ConceptLexicon {
  version: number;
  provenance: string;
  sites: Record<string, LexiconSite>;
  evidences: Record<string, LexiconEvidence>;
}

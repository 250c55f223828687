/**
 * The four-tier diagnostic KG (MedRAG Definition 3.1) as plain data.
 * kg-build produces a `DiagnosticKg`; the Neo4j loader writes it; the query side reads
 * it back (`KgSnapshot`) once at start-up. Property names here are the Neo4j property
 * names (see cypher/MODEL.md), so the two sides cannot drift.
 */
import type { AnswerType } from './record.js';

export interface CategoryNode {
  id: string; // "cat:<slug>"
  name: string;
}

export interface SubcategoryNode {
  id: string; // "sub:<slug>"
  name: string;
  categoryId: string;
}

export interface DiseaseNode {
  id: string; // "dis:<slug>"
  name: string;
  subcategoryId: string;
  icd10: string | null;
  /** Number of training records with this diagnosis. */
  recordCount: number;
  /** Raw diagnosis strings clustered into this disease (MedRAG eq. 3). */
  aliases: string[];
  /**
   * Training records per age band (src/domain/demographics.ts AGE_BANDS) and per sex [M, F]:
   * croup, bronchiolitis or otitis media are age-bound, and a free-text "38M" should say so.
   * Absent/null when the source has no demographics.
   */
  ageBands?: number[] | null;
  sexCounts?: number[] | null;
  /**
   * Evidence codes the source's own dictionary declares for this disease (DDXPlus
   * release_conditions.json), union over the raw diagnoses clustered into it; absent/null when
   * the source declares none. A small sample never shows most of them for a rare disease.
   */
  declaredEvidence?: string[] | null;
  /**
   * Curated knowledge of this disease's findings (RecordSource.diseaseKnowledge; DDXPlus: Orphanet's
   * HPO annotations): evidence codes and, aligned, how often each is seen, and where that comes
   * from. Free text is scored with a rate where the disease's records never showed the finding
   * (src/reasoners/scoring-knowledge.ts). Absent/null when the source knows nothing of the disease.
   */
  knownEvidence?: string[] | null;
  knownRates?: number[] | null;
  knowledgeSource?: string | null;
  /**
   * Of `recordCount`, the records that had notes, when the disease also has records without
   * (a KG from coded sources and notes): its NOTES_MENTION edges are counted over these.
   * Absent/null when all or none of its records had notes.
   */
  notedRecords?: number | null;
}

export type FeatureKind = 'ehr' | 'augmented';

export interface FeatureNode {
  id: string; // "feat:<hash>"
  text: string;
  kind: FeatureKind;
  /** Provenance: source question code / value code (DDXPlus E_54 / V_179), else null. */
  code: string | null;
  valueCode: string | null;
  question: string | null;
  valueText: string | null;
  antecedent: boolean | null;
  /** The source question's declared answer type (Finding.answerType); null/absent when the source declares none. */
  answerType?: AnswerType | null;
  /** The source question this feature's question is asked under (Finding.parentCode); null/absent when top-level or undeclared. */
  parentCode?: string | null;
  /**
   * The concept vocabulary a feature read from notes belongs to ("DDXPlus", "HPO", "emergent");
   * null/absent for features of coded sources (their code says it).
   */
  vocabulary?: string | null;
  /**
   * Surface forms the query side reads the feature by, beside its label: a vocabulary concept's
   * synonyms, an emergent concept's phrases seen in notes of at least k patients. Null/absent: none.
   */
  forms?: string[] | null;
  /**
   * True when the feature was learnt only from notes: a note that does not mention it says nothing
   * about it, so the reasoner never counts it as absent for being unreported (a questionnaire's
   * unanswered question is a no; a note's unwritten finding is unknown). Null/absent: coded.
   */
  fromNotes?: boolean | null;
  /** A vocabulary concept's cross-references ("SNOMEDCT_US:386661006", "UMLS:C0015967"); null/absent: none. */
  xrefs?: string[] | null;
}

/** (:Disease)-[:HAS_MANIFESTATION {prevalence, count, source}]->(:Feature) */
export interface ManifestationEdge {
  diseaseId: string;
  featureId: string;
  /** P(feature | disease) over the disease's training records (or the LLM's estimate for L4a). */
  prevalence: number;
  count: number;
  source: 'ehr' | 'llm' | 'triples';
}

/**
 * (:Disease)-[:NOTES_MENTION {count}]->(:Feature): how a disease's notes speak of a feature, for a
 * disease whose records are partly coded and partly notes (DiseaseNode.notedRecords): `count` of
 * its records with notes state the feature present. HAS_MANIFESTATION keeps the coded answer's
 * rate; free text is read against this one (src/reasoners/text-view.ts).
 */
export interface NotesMentionEdge {
  diseaseId: string;
  featureId: string;
  count: number;
}

/** (:Disease)-[:HAS_KEY_DIFFERENCE]->(:KeyDifference)-[:CONTRASTS_WITH]->(:Disease) */
export interface KeyDifferenceNode {
  id: string; // "kd:<hash>"
  diseaseId: string;
  contrastsWith: string[]; // sibling disease ids
  text: string;
  featureId: string | null;
  prevalenceIn: number | null;
  prevalenceSiblings: number | null;
  source: 'statistical' | 'llm';
}

export interface DiagnosticKg {
  categories: CategoryNode[];
  subcategories: SubcategoryNode[];
  diseases: DiseaseNode[];
  features: FeatureNode[];
  manifestations: ManifestationEdge[];
  /** Absent in KGs without diseases of mixed records (and in KGs from before issue 24's text view). */
  notesMentions?: NotesMentionEdge[];
  keyDifferences: KeyDifferenceNode[];
}

/** What the (:KgBuild) node records. */
export interface KgBuildInfo {
  id: string;
  source: string;
  embedder: string;
  embeddingDim: number;
  params: Record<string, unknown>;
  counts: Record<string, number>;
  startedAt: string;
  finishedAt: string | null;
  status: 'loading' | 'complete';
}

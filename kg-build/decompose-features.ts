import type { Embeddings } from '@langchain/core/embeddings';
import type { FeatureNode, ManifestationEdge, NotesMentionEdge } from '../src/domain/kg.js';
import type { DiseaseClusters } from './cluster-diseases.js';
import { overNoteFeatureBudget, type NoteFeatureRank } from './note-feature-budget.js';
import { notesSupport, type NotesSupportReport } from './notes-support.js';
import { notesLearntPerDisease } from './notes-learnt.js';
import { featureIdOf, isFreeTextKey } from './feature-key.js';
import { readSpool, type FeatureProto, type RecordScan } from './scan-records.js';
import { embedAll } from './vectors.js';
import { greedyGroups } from './near-duplicates.js';
import { DEFAULT_EMERGENT_OPTIONS, emergentConcepts, isEmergentKey, type EmergentConcepts, type EmergentOptions } from './emergent-concepts.js';

// MedRAG 4.1.1: decompose each disease's manifestations into discrete features E_L4d.

export interface DecomposeOptions {
  /** Free-text features at least this cosine-similar are merged into the more frequent one. */
  mergeSimilarity: number;
  /** Edges with fewer records than this are dropped (noise in large EHR sets). */
  minCount: number;
  /** Emergent concepts from notes (k, clustering); see emergent-concepts.ts. */
  emergent?: Partial<EmergentOptions>;
  /**
   * A coded feature of a disease with at least this many complete (coded) records is estimated
   * from those alone; notes count only below it (Infinity: always pooled with the notes).
   */
  completeRecordsFirst: number;
  /** A manifestation learnt from notes only needs this many of its disease's notes (notes-support.ts)... */
  minNoteSupport: number;
  /** ...when the disease has at least this many notes; a thinly documented one keeps what a single note says. */
  thinDiseaseNotes: number;
  /** An emergent concept is kept only when some disease shows it beyond the rest at this corrected p-value (diagnostic-association.ts). */
  emergentMaxP: number;
  /** A single note's finding is kept as an edge when 2+ notes of at least this many other diseases back the finding (notes-support.ts; Infinity: never). */
  sharedFindingDiseases: number;
  /** At most this many features learnt from notes per record with notes (note-feature-budget.ts; Infinity: no budget)... */
  maxNoteFeatureShare: number;
  /** ...but at least this many per disease with notes (a small corpus of long notes)... */
  noteFeaturesPerDisease: number;
  /** ...while under this many per record with notes: never one feature per note. */
  noteFeatureCeiling: number;
  /** Which of a disease's findings the budget keeps first (note-feature-budget.ts). */
  noteFeatureRank: NoteFeatureRank;
}

export const DEFAULT_DECOMPOSE_OPTIONS: DecomposeOptions = { mergeSimilarity: 0.92, minCount: 1, completeRecordsFirst: 5, minNoteSupport: 2, thinDiseaseNotes: 5, emergentMaxP: 0.003, sharedFindingDiseases: 5, maxNoteFeatureShare: 0.5, noteFeaturesPerDisease: 0, noteFeatureCeiling: 0.9, noteFeatureRank: 'auto' };

export interface DecomposedFeatures {
  features: FeatureNode[];
  manifestations: ManifestationEdge[];
  /** Free-text features folded into a near-duplicate. */
  merged: number;
  /** feature key -> key of the node it was merged into (only free-text keys appear). */
  canonical: ReadonlyMap<string, string>;
  /** Emergent concepts of the notes: candidates seen and concepts kept (0 / 0 without notes). */
  emergent: { candidates: number; kept: number };
  /** What the notes' support rules left out (notes-support.ts). */
  support: NotesSupportReport;
  /** Diseases whose records are partly notes: how their notes speak of each feature (NotesMentionEdge), and how many records had notes. */
  notesMentions: NotesMentionEdge[];
  notedRecords: ReadonlyMap<string, number>;
}

export async function decomposeFeatures(
  input: { scan: RecordScan; clusters: DiseaseClusters; embeddings: Embeddings; noteKeys?: ReadonlySet<string>; codedKeys?: ReadonlySet<string> },
  options: Partial<DecomposeOptions> = {},
): Promise<DecomposedFeatures> {
  const opts = { ...DEFAULT_DECOMPOSE_OPTIONS, ...options };
  const { scan, clusters } = input;
  const canonical = await mergeFreeText(scan, input.embeddings, opts.mergeSimilarity);
  const emergent = await groupEmergent(scan, input.embeddings, opts.emergent ?? {}, input.noteKeys ?? new Set());
  // A candidate phrase whose concept was not kept (too few patients) is no feature at all.
  for (const [k, rep] of emergent.canonical) canonical.set(k, rep ?? '');
  // A phenotype read from notes that a coded source of the build carries under its standard code
  // (HPO Fever's SNOMED cross-reference, an OMOP condition's SNOMED code) is that source's feature.
  for (const [from, to] of sameConceptAsCoded(scan, input.noteKeys ?? new Set())) canonical.set(from, to);

  // disease id -> feature key -> records (each record counted once per feature)
  const counts = new Map<string, Map<string, number>>();
  // Incomplete records (notes only): per disease, how many, and per feature how many said anything of it.
  const incomplete = new Map<string, { records: number; mentions: Map<string, number>; present: Map<string, number> }>();
  // Per disease: the records that had notes, and per feature how many of them state it present
  // (NOTES_MENTION, kept for the diseases that also have records without notes: mixedDiseases).
  const noted = new Map<string, number>();
  const notedPresent = new Map<string, Map<string, number>>();
  for await (const row of readSpool(scan.spoolPath)) {
    const diseaseId = clusters.diseaseOf.get(row.diagnosis);
    if (diseaseId === undefined) continue;
    const perDisease = counts.get(diseaseId) ?? new Map<string, number>();
    counts.set(diseaseId, perDisease);
    const present = new Set(row.features.map((k) => canonical.get(k) ?? k));
    if (row.noted) {
      noted.set(diseaseId, (noted.get(diseaseId) ?? 0) + 1);
      const said = notedPresent.get(diseaseId) ?? new Map<string, number>();
      notedPresent.set(diseaseId, said);
      for (const key of present) if (key !== '') said.set(key, (said.get(key) ?? 0) + 1);
    }
    for (const key of present) if (key !== '') perDisease.set(key, (perDisease.get(key) ?? 0) + 1);
    if (row.incomplete) {
      const inc = incomplete.get(diseaseId) ?? { records: 0, mentions: new Map<string, number>(), present: new Map<string, number>() };
      incomplete.set(diseaseId, inc);
      inc.records++;
      for (const key of new Set([...present, ...row.incomplete.absent])) if (key !== '') inc.mentions.set(key, (inc.mentions.get(key) ?? 0) + 1);
      for (const key of present) if (key !== '') inc.present.set(key, (inc.present.get(key) ?? 0) + 1);
    }
  }

  const noteOnly = (key: string) => isEmergentKey(key) || ((input.noteKeys?.has(key) ?? false) && !(input.codedKeys?.has(key) ?? false));
  // A coded feature is known only for the records that could have shown it: every complete record,
  // and an incomplete (notes only) one when its notes mention it, present or denied. A feature
  // learnt from notes only keeps every record as its denominator: being unmentioned is its signal.
  // (Over the records with notes alone it is the NOTES_MENTION rate; as the coded rate it made the
  // follow-up questions of a DDXPlus consultation ask what only notes name: docs/notes.md, session 14.)
  // With enough complete records the notes are left out of a coded feature's estimate: a note
  // mentions what struck its writer (fever yes far more often than fever no), so pooling its
  // mentions biases the answer to the coded question. Measured (docs/notes.md): pooled, the DDXPlus
  // + notes KG lost 0.5 / 0.6 points of interactive top-1 at 0 / 3 questions against DDXPlus alone.
  const estimate = (diseaseId: string, key: string, n: number, count: number): { count: number; observed: number } => {
    const inc = incomplete.get(diseaseId);
    if (!inc || noteOnly(key)) return { count, observed: n };
    const complete = n - inc.records;
    if (complete >= opts.completeRecordsFirst) return { count: count - (inc.present.get(key) ?? 0), observed: complete };
    return { count, observed: Math.max(1, complete + (inc.mentions.get(key) ?? 0)) };
  };
  const recordsOf = new Map(clusters.diseases.map((d) => [d.id, d.recordCount]));
  const support = notesSupport({ noted, notedPresent, noteOnly }, opts);
  const used = new Set<string>();
  const manifestations: ManifestationEdge[] = [];
  const proposed: { kept: boolean; edge: ManifestationEdge; key: string }[] = [];
  for (const [diseaseId, perDisease] of [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const n = recordsOf.get(diseaseId) ?? 0;
    for (const [key, all] of [...perDisease.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (n === 0) continue;
      const { count, observed } = estimate(diseaseId, key, n, all);
      if (count < Math.max(1, opts.minCount)) continue;
      const kept = support.keeps(diseaseId, key, count);
      if (kept) used.add(key);
      proposed.push({ kept, key, edge: { diseaseId, featureId: featureIdOf(key), prevalence: count / observed, count, source: 'ehr' } });
    }
  }
  const settled = support.settle(proposed);
  const notesBudget = { candidates: new Set([...used].filter(noteOnly)), notedPresent, notes: [...noted.values()].reduce((a, b) => a + b, 0), diseases: [...noted.values()].filter((n) => n > 0).length, notedPerDisease: noted };
  const overBudget = overNoteFeatureBudget(notesBudget, opts.maxNoteFeatureShare, { perDisease: opts.noteFeaturesPerDisease, ceiling: opts.noteFeatureCeiling }, opts.noteFeatureRank);
  support.report.overBudgetFeatures = overBudget.size;
  for (const key of overBudget) used.delete(key);
  for (const p of settled) if (!overBudget.has(p.key)) manifestations.push(p.edge);
  const features = [...used].sort().map((key) => ({ ...toNode(emergent.protos.get(key) ?? scan.features.get(key)!), ...(noteOnly(key) ? { fromNotes: true } : {}) }));
  support.report.learnt = notesLearntPerDisease({ noted, features, manifestations });
  const merged = [...canonical.entries()].filter(([k, v]) => k !== v && !isEmergentKey(k)).length;
  const mixed = mixedDiseases(recordsOf, noted, notedPresent, used);
  return { features, manifestations, merged, canonical, emergent: { candidates: emergent.candidates, kept: emergent.kept - support.report.undiagnostic - [...overBudget].filter(isEmergentKey).length }, support: support.report, ...mixed };
}

/**
 * A disease with records of both kinds (coded and notes) keeps two rates per feature: the coded
 * answer's (HAS_MANIFESTATION, estimated from its complete records) and how its notes speak
 * (NOTES_MENTION): "pain somewhere: yes" is answered by nearly every coded record of a disease and
 * written in half its notes. A disease of one kind needs only the first: its edges are that rate.
 */
function mixedDiseases(recordsOf: ReadonlyMap<string, number>, noted: ReadonlyMap<string, number>, present: ReadonlyMap<string, ReadonlyMap<string, number>>, used: ReadonlySet<string>): Pick<DecomposedFeatures, 'notesMentions' | 'notedRecords'> {
  const notesMentions: NotesMentionEdge[] = [];
  const notedRecords = new Map<string, number>();
  for (const [diseaseId, n] of [...noted.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (n >= (recordsOf.get(diseaseId) ?? 0)) continue;
    notedRecords.set(diseaseId, n);
    for (const [key, count] of [...(present.get(diseaseId) ?? new Map<string, number>()).entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (used.has(key)) notesMentions.push({ diseaseId, featureId: featureIdOf(key), count });
    }
  }
  return { notesMentions, notedRecords };
}

/** "SNOMEDCT_US:386661006" → the key an OMOP/FHIR finding of that concept has ("c:SNOMED:386661006="). */
const XREF_VOCABULARY: Readonly<Record<string, string>> = { SNOMEDCT_US: 'SNOMED', SNOMEDCT: 'SNOMED', SNOMED: 'SNOMED', LOINC: 'LOINC', ICD10CM: 'ICD10CM', ICD10: 'ICD10CM' };

function sameConceptAsCoded(scan: RecordScan, noteKeys: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of noteKeys) {
    for (const xref of scan.features.get(key)?.xrefs ?? []) {
      const [vocab, code] = xref.split(/:(.*)/s);
      const std = vocab && code ? XREF_VOCABULARY[vocab] : undefined;
      const target = std ? `c:${std}:${code}=` : null;
      if (target && target !== key && scan.features.has(target) && !noteKeys.has(target)) {
        out.set(key, target);
        break;
      }
    }
  }
  return out;
}

/** Records per candidate emergent phrase (one spool pass), then the concepts they form. */
async function groupEmergent(scan: RecordScan, embeddings: Embeddings, options: Partial<EmergentOptions>, noteKeys: ReadonlySet<string>): Promise<EmergentConcepts> {
  const support = new Map<string, number>();
  const counted = (k: string) => isEmergentKey(k) || noteKeys.has(k);
  if (noteKeys.size > 0 || [...scan.features.keys()].some(isEmergentKey)) {
    for await (const row of readSpool(scan.spoolPath)) for (const k of new Set(row.features)) if (counted(k)) support.set(k, (support.get(k) ?? 0) + 1);
  }
  const grouped = await emergentConcepts({ support, protos: scan.features, embeddings }, options);
  // A vocabulary concept read from notes needs k records too: it is a phrase of the notes all the same.
  const k = { ...DEFAULT_EMERGENT_OPTIONS, ...options }.minVocabularyPatients;
  for (const key of noteKeys) if ((support.get(key) ?? 0) < k) grouped.canonical.set(key, null);
  return grouped;
}

function toNode(p: FeatureProto): FeatureNode {
  return { id: featureIdOf(p.key), text: p.text, kind: 'ehr', code: p.code, valueCode: p.valueCode, question: p.question, valueText: p.valueText, antecedent: p.antecedent, answerType: p.answerType, parentCode: p.parentCode, vocabulary: p.vocabulary, forms: p.forms, xrefs: p.xrefs };
}

/**
 * Greedy near-duplicate merge of free-text features: coded findings are distinct by
 * definition and never merged. Representatives are visited in key order so the result
 * does not depend on stream order; candidates come from a FAISS index (near-duplicates.ts).
 */
async function mergeFreeText(scan: RecordScan, embeddings: Embeddings, minSim: number): Promise<Map<string, string>> {
  const keys = [...scan.features.keys()].filter(isFreeTextKey).sort();
  const canonical = new Map<string, string>();
  if (keys.length < 2 || minSim > 1) return canonical;
  const vecs = await embedAll(embeddings, keys.map((k) => scan.features.get(k)!.text));
  const rep = greedyGroups(vecs, minSim);
  keys.forEach((key, i) => canonical.set(key, keys[rep[i]!]!));
  return canonical;
}

import type { Finding, RecordNote } from '../domain/record.js';
import type { FeatureNode } from '../domain/kg.js';
import type { InputFinding } from './findings.js';
import { decompose } from './decompose.js';
import type { ConceptSet } from './concepts/concept-set.js';
import { matchConcepts, unknownWords } from './concepts/match-concepts.js';
import { emergentPhrases, type EmergentPhrase } from './concepts/emergent-phrases.js';
import type { ConceptLexicon } from './concepts/types.js';
import { impliedParentOf } from './concepts/yes-feature.js';
import { sectionRole } from './sections/shipped-rules.js';

/**
 * Notes → findings at build time (issue 24), with the very functions that read a query:
 * identifiers scrubbed and diagnosis-stating sections blanked first (`prepare`), then the
 * clinical text analysis (decompose: sections, negation, history, family, values), then the
 * concept layer tier by tier against the build's vocabularies (coded concepts with the lexicon,
 * then a phenotype vocabulary). What no vocabulary read becomes candidate emergent phrases,
 * counted across the corpus later (kg-build/emergent-concepts.ts). The note itself goes nowhere.
 */
export interface PreparedNote {
  /** The text the analysis reads: identifiers replaced, diagnosis sections blanked (offsets kept). */
  text: string;
  /** Section kind → characters left out because the section states the diagnosis. */
  leftOut: Record<string, number>;
  /** Identifier kind → how many were scrubbed. */
  scrubbed: Record<string, number>;
}

export interface NoteReaderDeps {
  /** The vocabularies as a snapshot of features (no diseases): what a finding can be read as. */
  vocabulary: ConceptSet;
  lexicon: ConceptLexicon | null;
  prepare: (text: string) => PreparedNote;
}

export interface NoteReading {
  /** Vocabulary concepts read from the notes, present and absent, one per feature. */
  findings: Finding[];
  /** Candidate emergent phrases of the findings no vocabulary read (present ones only). */
  candidates: EmergentPhrase[];
  /** Findings (of readable assertion) no vocabulary read. */
  unread: number;
  leftOut: Record<string, number>;
  scrubbed: Record<string, number>;
  /** The notes as read (scrubbed, diagnosis sections blanked): what the record index may embed, never store. */
  prepared: string[];
}

/** A medication list or an allergy is treatment history (issue 47): never an emergent concept ("lisinopril", "penicillin"). */
const treatment = (f: InputFinding) => sectionRole(f.section) === 'treatment';

/** A whole note that states the diagnosis by its title (a report's conclusion, an impression). */
const DIAGNOSIS_TITLE = /\b(?:conclusions?|impressions?|diagnos[ie]s|assessment)\b/i;

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

export function toFinding(node: FeatureNode, polarity: Finding['polarity']): Finding {
  return {
    text: node.text, polarity, code: node.code, valueCode: node.valueCode, question: node.question, valueText: node.valueText,
    antecedent: node.antecedent, answerType: node.answerType ?? null, parentCode: node.parentCode ?? null,
    concept: node.vocabulary ? { vocabulary: node.vocabulary, forms: node.forms ?? [], ...(node.xrefs ? { xrefs: node.xrefs } : {}) } : null,
  };
}

export function readNotes(notes: readonly RecordNote[], deps: NoteReaderDeps): NoteReading {
  const out: NoteReading = { findings: [], candidates: [], unread: 0, leftOut: {}, scrubbed: {}, prepared: [] };
  const byFeature = new Map<number, Finding['polarity']>();
  const candidates = new Map<string, EmergentPhrase>();
  const unknown = unknownWords(deps.vocabulary, deps.lexicon);
  for (const note of notes) {
    if (note.title && DIAGNOSIS_TITLE.test(note.title)) {
      out.leftOut['note titled as a diagnosis'] = (out.leftOut['note titled as a diagnosis'] ?? 0) + note.text.length;
      continue;
    }
    const prepared = deps.prepare(note.text);
    add(out.leftOut, prepared.leftOut);
    add(out.scrubbed, prepared.scrubbed);
    out.prepared.push(prepared.text.replace(/\s+/g, ' ').trim());
    const { findings } = decompose({ text: prepared.text, findings: [] });
    const read = matchConcepts({ snapshot: deps.vocabulary, lexicon: deps.lexicon, phraseEmbedder: null }, { findings, text: prepared.text });
    findings.forEach((f: InputFinding, i) => {
      const hits = read.get(i);
      if (hits && hits.length > 0) {
        for (const h of hits) {
          const feature = deps.vocabulary.featureIndex.get(h.featureId)!;
          // Said present anywhere in the record wins over a denial elsewhere ("no cough" in ROS, "cough" in HPI).
          if (byFeature.get(feature) !== 'present') byFeature.set(feature, h.polarity);
        }
        // The words no vocabulary knows still say something ("photosensitive malar" of a rash); a
        // measurement's name is ours, not the writer's.
        if (f.polarity === 'present' && !f.measured && !treatment(f)) for (const p of emergentPhrases(f, true, unknown)) candidates.set(p.key, p);
        return;
      }
      // A measured value no vocabulary read is a number, not a phrase ("heart rate 72 /min").
      if (f.measured) return;
      const phrases = emergentPhrases(f);
      if (phrases.length === 0) return;
      out.unread++;
      if (f.polarity === 'present' && !treatment(f)) for (const p of phrases) candidates.set(p.key, p);
    });
  }
  // A follow-on answer implies its question's yes, as the query side reads it (implied-parents.ts):
  // a note's sore throat (pain location: pharynx) is a pain, or its notes and a query disagree on it.
  for (const [feature, polarity] of [...byFeature]) {
    const parent = polarity === 'present' ? impliedParentOf(deps.vocabulary, feature) : undefined;
    if (parent !== undefined && !byFeature.has(parent)) byFeature.set(parent, 'present');
  }
  for (const [feature, polarity] of byFeature) out.findings.push(toFinding(deps.vocabulary.features[feature]!, polarity));
  out.candidates = [...candidates.values()];
  return out;
}

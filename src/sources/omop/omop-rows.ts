import { err, ok, type Result } from '../../result.js';
import type { RowProblem } from '../row-issues.js';
import type { Concept, ConditionFact, EventFact, FactValue, NoteTerm, VisitFacts } from './clinical-facts.js';

/** One row of visitFactsSql (see omop-sql.ts for the columns). */
export interface OmopFactRow {
  visit_id: string | number;
  part: number;
  row_id: string | number | null;
  start_date: string | null;
  person_id: string | number | null;
  year_of_birth: number | null;
  month_of_birth: number | null;
  day_of_birth: number | null;
  gender_concept_id: number | null;
  concept_id: number | null;
  vocabulary_id: string | null;
  concept_code: string | null;
  concept_name: string | null;
  raw_concept_id: number | null;
  source_value: string | null;
  num: number | null;
  unit: string | null;
  range_low: number | null;
  range_high: number | null;
  value_concept_id: number | null;
  value_vocabulary: string | null;
  value_code: string | null;
  value_name: string | null;
  value_text: string | null;
  primary_rank: number | null;
  icd10: string | null;
  /** Notes (part 5): sort key, title and text. */
  note_order: string | null;
  note_title: string | null;
  note_text: string | null;
  /** note_nlp terms (part 6): the NLP system's assertion of the term. */
  term_exists: string | null;
  term_temporal: string | null;
  term_modifiers: string | null;
}

/** OMOP gender concepts: 8507 MALE, 8532 FEMALE; anything else is unknown sex, not a bad row. */
const SEX: Readonly<Record<number, 'M' | 'F'>> = { 8507: 'M', 8532: 'F' };

export type VisitItem =
  | { kind: 'visit'; facts: VisitFacts; problems: Array<{ location: string; problem: RowProblem }> }
  /** Facts that name a visit_occurrence_id with no visit row. */
  | { kind: 'orphans'; visitId: string; count: number };

const PART_TABLE = ['visit_occurrence', 'condition_occurrence', 'condition_occurrence', 'measurement', 'observation', 'note', 'note_nlp'] as const;

const TRUE = /^(true|t|yes|y|1)$/i;
const NOT_EXISTS = /^(n|no|false|f|0)$/i;
/** Subjects that are the patient; any other (family, mother, donor...) is not the patient's finding. */
const PATIENT = /^(patient|pt|self|subject)$/i;
/** term_modifiers keys (OMOP CDM NOTE_NLP conventions; spellings vary by NLP system) onto what they decide. */
const MODIFIER: Readonly<Record<string, 'negated' | 'subject' | 'unasserted' | 'history' | 'certainty'>> = {
  negated: 'negated', negation: 'negated', neg: 'negated',
  subject: 'subject', experiencer: 'subject',
  conditional: 'unasserted', hypothetical: 'unasserted', rule_out: 'unasserted', ruleout: 'unasserted', possible: 'unasserted',
  history: 'history', historical: 'history',
  certainty: 'certainty', uncertain: 'certainty',
};

/**
 * One note_nlp row's assertion, after the OMOP CDM conventions for NOTE_NLP: term_exists 'N' or
 * a negation modifier is an absent finding; term_temporal 'past' or a history modifier an
 * antecedent. Modifiers that make term_exists false without denying the term (a subject other
 * than the patient; conditional, hypothetical, rule-out or very low certainty) cannot be said by
 * a Finding: such terms are reported, not read as absent.
 */
export function noteTermOf(r: Pick<OmopFactRow, 'term_exists' | 'term_temporal' | 'term_modifiers' | 'row_id'>): Result<Pick<NoteTerm, 'polarity' | 'past'>, RowProblem> {
  const mods = new Map<string, string>();
  for (const pair of (r.term_modifiers ?? '').split(/[,;|]/)) {
    const [k, v] = pair.split(/[=:]/).map((x) => x.trim().toLowerCase());
    const kind = k === undefined ? undefined : MODIFIER[k.replace(/[\s-]+/g, '_')];
    if (kind !== undefined && v !== undefined && v !== '') mods.set(kind, v);
  }
  const origin = `note_nlp ${String(r.row_id)}`;
  const subject = mods.get('subject');
  if (subject !== undefined && !PATIENT.test(subject)) return err({ category: 'term-not-about-patient', reason: `${origin}: the term is about another subject (term_modifiers), not the patient` });
  const unasserted = mods.get('unasserted');
  const certainty = mods.get('certainty');
  if ((unasserted !== undefined && TRUE.test(unasserted)) || (certainty !== undefined && /^very[\s_-]?low$|^none$/.test(certainty))) {
    return err({ category: 'term-not-asserted', reason: `${origin}: conditional, hypothetical, rule-out or very uncertain (term_modifiers)` });
  }
  const negated = mods.get('negated');
  const absent = (negated !== undefined && TRUE.test(negated)) || NOT_EXISTS.test((r.term_exists ?? '').trim());
  const history = mods.get('history');
  const past = /^past$/i.test((r.term_temporal ?? '').trim()) || (history !== undefined && TRUE.test(history));
  return ok({ polarity: absent ? 'absent' : 'present', past });
}

function conceptOf(r: OmopFactRow): Concept | null {
  if (r.concept_id === null || r.vocabulary_id === null || r.concept_code === null || r.concept_name === null || r.concept_id === 0) return null;
  return { vocabulary: r.vocabulary_id, code: r.concept_code, name: r.concept_name, conceptId: r.concept_id };
}

function valueOf(r: OmopFactRow): FactValue {
  if (r.num !== null) return { kind: 'number', value: r.num, unit: r.unit, range: { low: r.range_low, high: r.range_high }, interpretation: null };
  if (r.value_concept_id !== null && r.value_vocabulary !== null && r.value_code !== null && r.value_name !== null) {
    return { kind: 'concept', concept: { vocabulary: r.value_vocabulary, code: r.value_code, name: r.value_name, conceptId: r.value_concept_id } };
  }
  // A value concept id missing from the concept table, or text where a number belongs.
  if (r.value_concept_id !== null || (r.value_text !== null && r.value_text.trim() !== '')) return { kind: 'unparseable' };
  return { kind: 'none' };
}

/**
 * Groups the ordered fact rows into one VisitFacts per visit, holding one visit at a time.
 * A fact whose concept is not in the concept table is a problem of that visit, not a finding.
 */
export async function* groupVisits(rows: AsyncIterable<OmopFactRow>): AsyncGenerator<VisitItem> {
  // Typed with `as`: flush() resets them in a closure, which the compiler's narrowing does not see.
  let current = null as Extract<VisitItem, { kind: 'visit' }> | null;
  let orphan = null as { visitId: string; count: number } | null;
  const flush = function* (): Generator<VisitItem> {
    if (current !== null) yield current;
    if (orphan !== null) yield { kind: 'orphans', ...orphan };
    current = null;
    orphan = null;
  };
  let lastId: string | null = null;
  for await (const r of rows) {
    const visitId = String(r.visit_id);
    if (visitId !== lastId) {
      yield* flush();
      lastId = visitId;
    }
    if (r.part === 0) {
      const person = r.person_id === null || r.year_of_birth === null ? null : {
        key: `person ${r.person_id}`,
        birthDate: { year: r.year_of_birth, month: r.month_of_birth, day: r.day_of_birth },
        sex: SEX[r.gender_concept_id ?? 0] ?? null,
      };
      const facts: VisitFacts = { visitId, location: `visit_occurrence ${visitId}`, person, startDate: r.start_date ?? '', conditions: [], history: [], events: [] };
      current = { kind: 'visit', facts, problems: [] };
      continue;
    }
    if (current === null) {
      orphan = { visitId, count: (orphan?.count ?? 0) + 1 };
      continue;
    }
    const v: Extract<VisitItem, { kind: 'visit' }> = current;
    const origin = `${PART_TABLE[r.part] ?? 'row'} ${String(r.row_id)}`;
    const problem = (p: RowProblem) => v.problems.push({ location: `${v.facts.location} ${origin}`, problem: p });
    if (r.part === 5) {
      // The note as the source holds it: scrubbing and reading it is the build's work, not the source's.
      if (r.note_text === null || r.note_text.trim() === '') problem({ category: 'empty-note', reason: `${origin}: note_text is empty` });
      else (v.facts.notes ??= []).push({ origin, title: r.note_title, text: r.note_text });
      continue;
    }
    if (r.part === 6) {
      const concept = conceptOf(r);
      const lexical = r.source_value?.trim() ?? '';
      if (concept === null && lexical === '') {
        problem({ category: 'unmapped-concept', reason: `${origin}: concept_id ${r.raw_concept_id ?? 'null'} is not in the concept table (or is 0) and lexical_variant is empty` });
        continue;
      }
      const assertion = noteTermOf(r);
      if (!assertion.ok) problem(assertion.error);
      else (v.facts.noteTerms ??= []).push({ concept, lexical, ...assertion.value, provenance: { origin, sourceValue: lexical === '' ? null : lexical } });
      continue;
    }
    const concept = conceptOf(r);
    if (concept === null) {
      problem({ category: 'unmapped-concept', reason: `${origin}: concept_id ${r.raw_concept_id ?? 'null'} is not in the concept table (or is 0)` });
      continue;
    }
    const provenance = { origin, sourceValue: r.source_value };
    if (r.part === 1 || r.part === 2) {
      const c: ConditionFact = { concept, startDate: r.start_date ?? '', primaryRank: r.primary_rank ?? 2, icd10: r.icd10, provenance };
      (r.part === 1 ? v.facts.conditions : v.facts.history).push(c);
    } else {
      const e: EventFact = { table: r.part === 3 ? 'measurement' : 'observation', concept, value: valueOf(r), provenance };
      v.facts.events.push(e);
    }
  }
  yield* flush();
}

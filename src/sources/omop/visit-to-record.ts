import type { Finding, NormalizedRecord } from '../../domain/record.js';
import { err, ok, type Result } from '../../result.js';
import { binByInterpretation, binByRange, binByTertiles, type NumericBin, type Tertiles } from '../binning/bins.js';
import type { RowProblem } from '../row-issues.js';
import type { Concept, ConditionFact, EventFact, FactProvenance, NoteTerm, VisitFacts } from './clinical-facts.js';
import { chooseLabel, type LabelRule } from './label-rule.js';
import { formKey } from '../../clinical-text/concepts/emergent-phrases.js';
import { EMERGENT_CANDIDATE } from '../../clinical-text/concepts/tiers.js';
import { codedLabPhenotype } from '../../clinical-text/labs/coded-lab.js';

/** SNOMED "Yes" / "No" (OMOP concepts 4188539 / 4188540) as an observation's value concept. */
const SNOMED_YES = '373066001';
const SNOMED_NO = '373067005';

export const conceptKey = (c: Pick<Concept, 'vocabulary' | 'code'>): string => `${c.vocabulary}:${c.code}`;

export interface VisitContext {
  /** Record ids are `<idPrefix>:<visit id>`. */
  idPrefix: string;
  labelRule: LabelRule;
  /** concept key -> tertile cut points, for numeric codes without a reference range. */
  tertiles: ReadonlyMap<string, Tertiles>;
}

/** A fact of a kept visit that gave no finding, and why (counted apart from skipped visits). */
export interface FactIssue {
  location: string;
  problem: RowProblem;
}

export interface VisitOutcome {
  record: NormalizedRecord;
  issues: FactIssue[];
}

/** Age in whole years at the visit; month / day unknown count as the start of the year / month. */
export function ageAt(birth: { year: number; month: number | null; day: number | null }, visitDate: string): number {
  const [y, m, d] = visitDate.split('-').map(Number) as [number, number, number];
  const before = m < (birth.month ?? 1) || (m === (birth.month ?? 1) && d < (birth.day ?? 1));
  return y - birth.year - (before ? 1 : 0);
}

/**
 * Ages over 89 are identifiers (HIPAA Safe Harbor, 45 CFR 164.514(b)(2)(i)(C)): a record keeps
 * 90 and its text says "90+", as a de-identified note's age reads (src/clinical-text/analysis/demographics.ts).
 */
export const OLDEST_SHOWN_AGE = 90;
export const shownAge = (age: number): { age: number; text: string } => (age >= OLDEST_SHOWN_AGE ? { age: OLDEST_SHOWN_AGE, text: `${OLDEST_SHOWN_AGE}+` } : { age, text: String(age) });

/** One visit's facts -> one record; a visit without a person or a label is a bad row. */
export function visitToRecord(v: VisitFacts, ctx: VisitContext): Result<VisitOutcome, RowProblem> {
  if (v.person === null) return err({ category: 'missing-person', reason: `visit ${v.visitId}: its person is not in the source` });
  const label = chooseLabel(v.conditions, ctx.labelRule);
  if (label === null) return err({ category: 'visit-without-condition', reason: `visit ${v.visitId}: no condition recorded for the visit` });
  const exactAge = ageAt(v.person.birthDate, v.startDate);
  if (!(exactAge >= 0 && exactAge < 150)) return err({ category: 'bad-age', reason: `visit ${v.visitId}: age at visit out of range from the birth date` });
  const { age, text: ageText } = shownAge(exactAge);

  const issues: FactIssue[] = [];
  const findings: Finding[] = [];
  for (const h of v.history) findings.push(historyFinding(h));
  // A secondary diagnosis of the same visit is a comorbidity: evidence, not a second label.
  for (const c of v.conditions) if (c !== label && conceptKey(c.concept) !== conceptKey(label.concept)) findings.push(historyFinding(c));
  for (const e of v.events) {
    const f = eventFinding(e, ctx.tertiles);
    if (f.ok) findings.push(f.value);
    else issues.push({ location: `${v.location} ${e.provenance.origin}`, problem: f.error });
    // Beside its bin, a lab is the phenotype it shows: the feature a note's "Hgb 7.9" is read as (labs/coded-lab.ts).
    const phenotype = e.concept.vocabulary === 'LOINC' && e.value.kind === 'number'
      ? codedLabPhenotype({ loinc: e.concept.code, value: e.value.value, unit: e.value.unit, range: e.value.range, interpretation: e.value.interpretation, sex: v.person.sex })
      : null;
    if (phenotype !== null) findings.push(phenotype);
  }
  for (const t of v.noteTerms ?? []) findings.push(noteTermFinding(t));
  const unique = dedupe(findings);
  const sex = v.person.sex;
  // An NLP term no concept names stays out of the text (records.jsonl, the trace) until k patients share it.
  const lines = [`age: ${ageText}`, `sex: ${sex === 'M' ? 'male' : sex === 'F' ? 'female' : 'unknown'}`, ...unique.filter((f) => f.concept?.vocabulary !== EMERGENT_CANDIDATE).map((f) => f.text)];
  return ok({
    record: {
      id: `${ctx.idPrefix}:${v.visitId}`,
      // Visits of one person are one unit of a train/test split (src/sources/split.ts).
      patient: `${ctx.idPrefix}:${v.person.key}`,
      diagnosis: label.concept.name,
      icd10: label.icd10,
      age,
      sex,
      findings: unique,
      initialFindingCode: null,
      text: lines.join('\n'),
      location: v.location,
      differential: null,
      // The notes as the source holds them, never in `text`: the build scrubs and reads them.
      ...(v.notes !== undefined && v.notes.length > 0 ? { notes: v.notes } : {}),
    },
    issues,
  });
}

const provenanceOf = (c: Concept, p: FactProvenance) => ({ vocabulary: c.vocabulary, conceptCode: c.code, conceptId: c.conceptId, sourceValue: p.sourceValue, origin: p.origin });

export function historyFinding(h: ConditionFact): Finding {
  return {
    text: `history of ${h.concept.name}`, polarity: 'present', code: conceptKey(h.concept), valueCode: null,
    question: null, valueText: null, antecedent: true, answerType: 'yes-no', provenance: provenanceOf(h.concept, h.provenance),
  };
}

/**
 * A term an NLP system read from a note: worded like the same concept recorded as an
 * observation ("Cough", "Fever: absent") or as history ("history of Asthma"), so both give one
 * feature. Without a concept the lexical variant is the finding, uncoded like free text.
 */
function noteTermFinding(t: NoteTerm): Finding {
  // A term no concept names is a phrase of the note: an emergent candidate, which enters the KG
  // only when k patients' notes share it (a lexical variant may be anything, a name included).
  if (t.concept === null && t.polarity === 'present' && !t.past) {
    return { text: formKey(t.lexical), polarity: 'present', code: null, valueCode: null, question: null, valueText: t.lexical, antecedent: false, concept: { vocabulary: EMERGENT_CANDIDATE, forms: [t.lexical.toLowerCase()] } };
  }
  const name = t.concept?.name ?? t.lexical;
  const text = `${t.past ? `history of ${name}` : name}${t.polarity === 'absent' ? ': absent' : ''}`;
  return {
    text, polarity: t.polarity, code: t.concept === null ? null : conceptKey(t.concept), valueCode: null, question: null, valueText: null,
    antecedent: t.past, answerType: 'yes-no', provenance: t.concept === null ? null : provenanceOf(t.concept, t.provenance),
  };
}

export function eventFinding(e: EventFact, tertiles: ReadonlyMap<string, Tertiles>): Result<Finding, RowProblem> {
  const name = e.concept.name;
  const base = { code: conceptKey(e.concept), antecedent: false, provenance: provenanceOf(e.concept, e.provenance) };
  // Answer types for consultations: a finding without a value is asked yes / no; a coded value
  // or a bin is one of the code's values (low / normal / high, Positive / Negative...).
  const plain = (polarity: 'present' | 'absent'): Finding => ({ ...base, text: polarity === 'present' ? name : `${name}: absent`, polarity, valueCode: null, question: null, valueText: null, answerType: 'yes-no' });
  const v = e.value;
  switch (v.kind) {
    case 'none':
      return ok(plain('present'));
    case 'boolean':
      return ok(plain(v.value ? 'present' : 'absent'));
    case 'concept':
      if (v.concept.vocabulary === 'SNOMED' && v.concept.code === SNOMED_YES) return ok(plain('present'));
      if (v.concept.vocabulary === 'SNOMED' && v.concept.code === SNOMED_NO) return ok(plain('absent'));
      return ok({ ...base, text: `${name}: ${v.concept.name}`, polarity: 'present', valueCode: conceptKey(v.concept), question: name, valueText: v.concept.name, answerType: 'one-of' });
    case 'unparseable':
      return err({ category: 'unparseable-value', reason: `${e.table} ${base.code}: the value is not a number or a concept` });
    case 'number': {
      const bin: NumericBin | null =
        binByRange(v.value, v.range) ?? (v.interpretation !== null ? binByInterpretation(v.interpretation) : null) ?? tertileBin(v.value, tertiles.get(base.code), v.unit);
      if (bin === null) return err({ category: 'numeric-without-bins', reason: `${e.table} ${base.code}: no reference range and no tertiles for the code` });
      return ok({ ...base, text: `${name}: ${bin.label}`, polarity: 'present', valueCode: bin.code, question: name, valueText: bin.label, answerType: 'one-of' });
    }
  }
}

const tertileBin = (value: number, t: Tertiles | undefined, unit: string | null): NumericBin | null => (t === undefined ? null : binByTertiles(value, t, unit));

/** One finding per (code, value, polarity), in a fixed order so any source order gives one record. */
function dedupe(findings: Finding[]): Finding[] {
  const seen = new Map<string, Finding>();
  for (const f of findings) {
    // Uncoded findings (an NLP term without a concept) are told apart by their text.
    const k = `${f.antecedent ? 0 : 1}|${f.code ?? `text:${f.text.toLowerCase()}`}|${f.valueCode ?? ''}|${f.polarity}`;
    if (!seen.has(k)) seen.set(k, f);
  }
  return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, f]) => f);
}

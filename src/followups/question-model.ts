/**
 * Follow-up questions as a clinician would ask them. A question is about one feature
 * (yes/no) or about a group of features that share a source question (DDXPlus evidence
 * E_55 "Where is the pain?" with its value options). Questions and option labels are in the
 * clinical voice (src/presentation/): a question to the clinician about the patient, never the
 * source's patient-facing wording; a feature with no readable clinical label is not asked about.
 */
import type { AnswerType } from '../domain/record.js';
import type { ClinicalVoice } from '../presentation/clinical-voice.js';
import { shippedVoice } from '../presentation/shipped-voice.js';
import type { FollowupFeature } from './model.js';

export type { AnswerType } from '../domain/record.js';

export interface QuestionOption {
  /** The feature this option stands for (its answer maps back onto the graph). */
  featureId: string;
  /** Source value code (DDXPlus V_xx, or the number for numeric answers), else null. */
  valueCode: string | null;
  label: string;
}

export interface Question {
  /** Stable id: `q:<code>` for coded sources (`q:E_55`), `q:<featureId>` otherwise. */
  id: string;
  code: string | null;
  text: string;
  answerType: AnswerType;
  /** One option for yes/no questions (the feature asked about). */
  options: QuestionOption[];
  antecedent: boolean | null;
}

export interface QuestionCatalogue {
  questions: readonly Question[];
  byId: ReadonlyMap<string, Question>;
  /** Which question asks about a feature. */
  byFeature: ReadonlyMap<string, Question>;
}

/** Answer types per source code when the source declares them (DDXPlus data_type B/C/M). */
export type AnswerTypeHints = ReadonlyMap<string, AnswerType>;

/** The KG's record counts per disease, to tell single from multiple choice where no type is declared. */
export interface ChoiceCounts {
  countsOf(featureId: string): ArrayLike<number>;
  readonly recordCounts: ArrayLike<number>;
}

const isNumeric = (v: string | null): boolean => v !== null && /^-?\d+(\.\d+)?$/.test(v);

function optionOf(voice: ClinicalVoice, f: FollowupFeature): QuestionOption {
  return { featureId: f.id, valueCode: f.valueCode, label: voice.optionLabel(f) };
}

function yesNoQuestion(voice: ClinicalVoice, id: string, f: FollowupFeature): Question | null {
  const text = voice.yesNoQuestion(f);
  return text === null ? null : { id, code: f.code, text, answerType: 'yes-no', options: [optionOf(voice, f)], antecedent: f.antecedent };
}

/**
 * A valued question's type, first found of: the type its features carry in the KG (set at
 * build time from the source's declaration, e.g. DDXPlus data_type), a caller's hint, all
 * numeric values (a number), and the KG's own counts: when some disease has more records
 * with one of the values than records at all, records hold several values (multiple
 * choice); otherwise each record holds at most one as far as the graph can tell (single
 * choice). Without counts, several answers are allowed.
 */
function inferType(code: string, group: FollowupFeature[], hints: AnswerTypeHints | undefined, counts: ChoiceCounts | undefined): AnswerType {
  const declared = group.find((f) => f.answerType && f.answerType !== 'yes-no')?.answerType;
  if (declared) return declared;
  const hinted = hints?.get(code);
  if (hinted !== undefined && hinted !== 'yes-no') return hinted;
  if (group.every((f) => isNumeric(f.valueCode))) return 'number';
  if (!counts) return 'several-of';
  const sums = new Float64Array(counts.recordCounts.length);
  for (const f of group) {
    const c = counts.countsOf(f.id);
    for (let i = 0; i < sums.length; i++) sums[i]! += c[i] ?? 0;
  }
  return sums.some((v, i) => v > counts.recordCounts[i]!) ? 'several-of' : 'one-of';
}

export function buildQuestionCatalogue(features: readonly FollowupFeature[], opts: { hints?: AnswerTypeHints; counts?: ChoiceCounts; voice?: ClinicalVoice } = {}): QuestionCatalogue {
  const voice = opts.voice ?? shippedVoice();
  const groups = new Map<string, FollowupFeature[]>();
  const questions: Question[] = [];
  // A feature with no readable clinical label is not asked about (null).
  const push = (q: Question | null) => q !== null && questions.push(q);
  for (const f of features) {
    if (f.code === null) {
      push(yesNoQuestion(voice, `q:${f.id}`, f));
      continue;
    }
    const g = groups.get(f.code) ?? [];
    groups.set(f.code, g);
    g.push(f);
  }
  for (const [code, group] of groups) {
    const valued = group.filter((f) => f.valueCode !== null);
    if (valued.length === 0) {
      // Boolean evidence: one feature; duplicates (same code, several ids) keep the first.
      push(yesNoQuestion(voice, `q:${code}`, group[0]!));
      continue;
    }
    const answerType = inferType(code, valued, opts.hints, opts.counts);
    if (valued.length === 1 && answerType !== 'number') {
      // One value in the graph (DDXPlus Y/N questions keep only "yes": "no" is a negative finding): a yes/no question.
      push(yesNoQuestion(voice, `q:${code}`, valued[0]!));
      continue;
    }
    // Options keep the order of the source's own value words (the rankers' sampling follows it).
    const order = new Map(group.map((f) => [f.id, f.valueText ?? f.valueCode ?? f.text]));
    const options = group.map((f) => optionOf(voice, f));
    if (answerType === 'number') options.sort((a, b) => Number(a.valueCode) - Number(b.valueCode));
    else options.sort((a, b) => order.get(a.featureId)!.localeCompare(order.get(b.featureId)!));
    const first = group[0]!;
    const text = voice.groupQuestion(first);
    if (text !== null) questions.push({ id: `q:${code}`, code, text, answerType, options, antecedent: first.antecedent });
  }
  questions.sort((a, b) => a.id.localeCompare(b.id));
  const byFeature = new Map<string, Question>();
  for (const q of questions) for (const o of q.options) byFeature.set(o.featureId, q);
  return { questions, byId: new Map(questions.map((q) => [q.id, q])), byFeature };
}

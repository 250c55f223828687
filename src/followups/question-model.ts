/**
 * Follow-up questions as a clinician would ask them. A question is about one feature
 * (yes/no) or about a group of features that share a source question (DDXPlus evidence
 * E_55 "Where is the pain located?" with its value options). The catalogue is built
 * from the features' provenance, so a coded source is asked in its own words.
 */
import type { FollowupFeature } from './model.js';

export type AnswerType = 'yes-no' | 'one-of' | 'several-of' | 'number';

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

const isNumeric = (v: string | null): boolean => v !== null && /^-?\d+(\.\d+)?$/.test(v);

function optionOf(f: FollowupFeature): QuestionOption {
  return { featureId: f.id, valueCode: f.valueCode, label: f.valueText ?? f.valueCode ?? f.text };
}

function yesNoQuestion(id: string, f: FollowupFeature): Question {
  const text = f.question ?? `Does the patient have: ${f.text}?`;
  return { id, code: f.code, text, answerType: 'yes-no', options: [optionOf(f)], antecedent: f.antecedent };
}

/** Without a hint: all-numeric values ask for a number; other groups allow several answers. */
function inferType(code: string, group: FollowupFeature[], hints: AnswerTypeHints | undefined): AnswerType {
  const hinted = hints?.get(code);
  if (hinted !== undefined && hinted !== 'yes-no') return hinted;
  return group.every((f) => isNumeric(f.valueCode)) ? 'number' : 'several-of';
}

export function buildQuestionCatalogue(features: readonly FollowupFeature[], opts: { hints?: AnswerTypeHints } = {}): QuestionCatalogue {
  const groups = new Map<string, FollowupFeature[]>();
  const questions: Question[] = [];
  for (const f of features) {
    if (f.code === null) {
      questions.push(yesNoQuestion(`q:${f.id}`, f));
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
      questions.push(yesNoQuestion(`q:${code}`, group[0]!));
      continue;
    }
    const answerType = inferType(code, valued, opts.hints);
    const options = group.map(optionOf);
    if (answerType === 'number') options.sort((a, b) => Number(a.valueCode) - Number(b.valueCode));
    else options.sort((a, b) => a.label.localeCompare(b.label));
    const first = group[0]!;
    questions.push({ id: `q:${code}`, code, text: first.question ?? first.text, answerType, options, antecedent: first.antecedent });
  }
  questions.sort((a, b) => a.id.localeCompare(b.id));
  const byFeature = new Map<string, Question>();
  for (const q of questions) for (const o of q.options) byFeature.set(o.featureId, q);
  return { questions, byId: new Map(questions.map((q) => [q.id, q])), byFeature };
}

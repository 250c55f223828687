/**
 * Information gain over the live differential at the cost of what it touches. A question none
 * of whose features any live disease (posterior ≥ minProbability) has shown has, over the live
 * diseases, the same answer distribution as every other such question of its shape: P(f | d) =
 * α / (n_d + 2α) for a yes/no question, α / denom_K per value and the rest for "none" for a
 * one-of question of K values, and no option to sample for a several-of one (gain 0,
 * information-gain.ts). So its gain is computed once per shape, and only the first `limit` of
 * each shape (by id, the rankers' tie order) can reach the answer. The questions the live
 * diseases touch are scored one by one. Same ranking as scoring every open question
 * (test/unit/followups-live-gain.test.ts).
 */
import type { Question, QuestionCatalogue } from './question-model.js';
import type { RankContext } from './ranker.js';

export interface Scored {
  question: Question;
  score: number;
}

/** Questions sharing a gain when untouched: 'bern' (yes/no, one-option several-of), 'multi' (several-of), 'cat:K'. */
function shapeOf(q: Question): string {
  if (q.answerType === 'several-of' && q.options.length > 1) return 'multi';
  if (q.answerType === 'yes-no' || q.answerType === 'several-of') return 'bern';
  return `cat:${q.options.length}`;
}

const byShapeCache = new WeakMap<QuestionCatalogue, Map<string, Question[]>>();

/** Per shape, the catalogue's questions in the rankers' id order (built once per catalogue). */
function questionsByShape(c: QuestionCatalogue): Map<string, Question[]> {
  let out = byShapeCache.get(c);
  if (out) return out;
  out = new Map();
  for (const q of c.questions) {
    const list = out.get(shapeOf(q)) ?? [];
    list.push(q);
    out.set(shapeOf(q), list);
  }
  for (const list of out.values()) list.sort((a, b) => a.id.localeCompare(b.id));
  byShapeCache.set(c, out);
  return out;
}

const diseaseQuestionsCache = new WeakMap<QuestionCatalogue, WeakMap<RankContext['model'], Int32Array[]>>();

/** Per disease, the catalogue positions of the questions its features belong to (built once per catalogue and model). */
function diseaseQuestions(ctx: RankContext): Int32Array[] {
  let byModel = diseaseQuestionsCache.get(ctx.catalogue);
  if (!byModel) diseaseQuestionsCache.set(ctx.catalogue, (byModel = new WeakMap()));
  let out = byModel.get(ctx.model);
  if (out) return out;
  const position = positions(ctx.catalogue);
  out = ctx.model.diseases.map((_, d) => {
    const qs = new Set<number>();
    for (const f of ctx.model.featuresOf(d)) {
      const q = ctx.catalogue.byFeature.get(f);
      if (q) qs.add(position.get(q)!);
    }
    return Int32Array.from(qs);
  });
  byModel.set(ctx.model, out);
  return out;
}

/** Open questions' gains, enough of them that the best `limit` (score desc, id asc) are among them. */
export function liveCandidates(ctx: RankContext, live: readonly number[], limit: number, gainOf: (q: Question) => number): Scored[] {
  const isOpen = (q: Question) => !ctx.asked.has(q.id) && !q.options.every((o) => ctx.knownFeatures.has(o.featureId));
  // Marked by catalogue position (typed arrays, not a Set of questions): a turn at 1,000 diagnoses walks ~50k edges here.
  const byDisease = diseaseQuestions(ctx);
  const questions = ctx.catalogue.questions;
  const mark = new Uint8Array(questions.length);
  const out: Scored[] = [];
  for (const d of live) {
    const qs = byDisease[d]!;
    for (let k = 0; k < qs.length; k++) {
      const i = qs[k]!;
      if (mark[i] === 1) continue;
      mark[i] = 1;
      if (isOpen(questions[i]!)) out.push({ question: questions[i]!, score: gainOf(questions[i]!) });
    }
  }
  const position = positions(ctx.catalogue);
  for (const list of questionsByShape(ctx.catalogue).values()) {
    let gain: number | null = null;
    let kept = 0;
    for (const q of list) {
      if (kept >= limit) break;
      if (mark[position.get(q)!] === 1 || !isOpen(q)) continue;
      gain ??= gainOf(q);
      out.push({ question: q, score: gain });
      kept++;
    }
  }
  return out;
}

const positionsCache = new WeakMap<QuestionCatalogue, Map<Question, number>>();

function positions(c: QuestionCatalogue): Map<Question, number> {
  let out = positionsCache.get(c);
  if (!out) positionsCache.set(c, (out = new Map(c.questions.map((q, i) => [q, i] as const))));
  return out;
}

/**
 * MedRAG discriminability ranker. Eq. 15-16: sigma(f) = (n - 1) / deg(f), argmax over the
 * candidate diseases' features the patient has not reported.
 */
import { candidateIndices, openQuestions, type FollowupRanker, type ScoredQuestion } from './ranker.js';

export function sigmaRanker(opts: { candidateMass?: number; maxCandidates?: number } = {}): FollowupRanker {
  return {
    name: 'sigma',
    rank(ctx, limit) {
      const cands = candidateIndices(ctx, { mass: opts.candidateMass ?? 0.95, max: opts.maxCandidates ?? 10 });
      const n = ctx.model.features.length;
      const scored: (ScoredQuestion & { coverage: number })[] = [];
      for (const q of openQuestions(ctx)) {
        let best: { sigma: number; coverage: number; featureId: string } | null = null;
        for (const o of q.options) {
          if (ctx.knownFeatures.has(o.featureId)) continue;
          // Only features of candidate diseases (eq. 16's E_L4d_s).
          const coverage = cands.reduce((s, i) => s + (ctx.model.countAt(o.featureId, i) > 0 ? ctx.posterior[i]! : 0), 0);
          if (coverage === 0) continue;
          const sigma = (n - 1) / ctx.model.degree(o.featureId);
          // Ties (common: many features of degree 1) go to the feature covering more candidate mass;
          // the paper does not say how to break them.
          if (!best || sigma > best.sigma || (sigma === best.sigma && coverage > best.coverage)) best = { sigma, coverage, featureId: o.featureId };
        }
        if (best) scored.push({ question: q, score: best.sigma, ranker: 'sigma', featureId: best.featureId, coverage: best.coverage });
      }
      scored.sort((a, b) => b.score - a.score || b.coverage - a.coverage || a.question.id.localeCompare(b.question.id));
      return scored.slice(0, limit).map(({ coverage: _c, ...s }) => s);
    },
  };
}

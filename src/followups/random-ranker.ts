/** Baseline: open questions in a seeded random order (reproducible per seed and turn). */
import { hashString, seededRandom } from './rng.js';
import { openQuestions, type FollowupRanker } from './ranker.js';

export function randomRanker(seed: number): FollowupRanker {
  return {
    name: 'random',
    rank(ctx, limit) {
      return openQuestions(ctx)
        .map((q) => ({ question: q, score: seededRandom(hashString(`${seed}:${ctx.asked.size}:${q.id}`))(), ranker: 'random' as const, featureId: q.options[0]!.featureId }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}

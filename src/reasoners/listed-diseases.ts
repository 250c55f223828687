/**
 * Which diseases a differential lists (issue 48): the k best by raw score, and after them every
 * other disease whose probability is at least MIN_LISTED_P, so an unlisted disease is always
 * below it and a clinician can read "not listed" as "under 1%". The probabilities are monotone
 * in the raw score (a calibration never reorders), so the extra ones follow in score order.
 */
import { topK } from './top-k.js';

export const MIN_LISTED_P = 0.01;

export function listedDiseases(scores: ArrayLike<number>, probs: ArrayLike<number>, k: number): number[] {
  const top = topK(scores, k);
  const listed = new Set(top);
  const more: number[] = [];
  for (let i = 0; i < probs.length; i++) if (!listed.has(i) && probs[i]! >= MIN_LISTED_P) more.push(i);
  more.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return [...top, ...more];
}

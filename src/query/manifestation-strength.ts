/**
 * How strongly a finding marks a disease among its siblings (issue 48 item 3): p(f|d) × lift, the
 * lift of the rule d → f over the sibling diseases (Brin, Motwani, Ullman & Tsur, SIGMOD 1997:
 * lift = p(f|d) / p(f|siblings)), each side smoothed by α so a finding no sibling shows does not
 * divide by zero. Common in the disease and rarer in its siblings ranks first: a finding every
 * sibling shows as often scores about its prevalence, one only this disease shows several times that.
 */
export const STRENGTH_ALPHA = 0.05;

/** A manifestation is shown for a disease only when present in at least this share of its records. */
export const MIN_SHOWN_PREVALENCE = 0.3;

export function manifestationStrength(pDisease: number, pSiblings: number, alpha = STRENGTH_ALPHA): number {
  return (pDisease * (pDisease + alpha)) / (pSiblings + alpha);
}

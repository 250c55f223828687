/**
 * The differential a consultation's answers update: the one `/v1/diagnose` gave for the
 * first description. `diagnose` lists only its top diseases; a disease it left out is not
 * ruled out, only less likely than every listed one. So the unlisted diseases share a small
 * mass, `unlistedMass` × the lowest listed probability, split by the KG's disease prior:
 * each stays below every listed disease (the first turn's ranking is kept exactly), and
 * answers that fit one of them well can still raise it.
 */
import type { FollowupModel } from '../followups/model.js';

export function startingPrior(model: FollowupModel, listed: ReadonlyMap<string, number>, unlistedMass: number): Map<string, number> {
  const out = new Map<string, number>();
  let lowest = Infinity;
  for (const [id, p] of listed) {
    if (model.diseaseIndex(id) === undefined || !(p > 0)) continue;
    out.set(id, p);
    lowest = Math.min(lowest, p);
  }
  if (!Number.isFinite(lowest)) lowest = 1; // nothing listed: the KG prior alone
  const unlisted = model.diseases.flatMap((d, i) => (out.has(d.id) ? [] : [{ id: d.id, w: Math.exp(model.logPrior[i]!) }]));
  const z = unlisted.reduce((a, u) => a + u.w, 0);
  for (const u of unlisted) out.set(u.id, (unlistedMass * lowest * u.w) / (z || 1));
  return out;
}

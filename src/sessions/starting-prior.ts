/**
 * The prior a consultation's answers update, built from the differential `/v1/diagnose`
 * gave for the first description.
 *
 * `diagnose` lists only its top diseases; a disease it left out is not ruled out, only less
 * likely than every listed one. So the unlisted diseases share a small mass, `unlistedMass`
 * × the lowest listed probability, split by the KG's disease prior: each stays below every
 * listed disease, and answers that fit one of them well can still raise it.
 *
 * That differential is then blended with the follow-up engine's own reading of the same
 * description (the KG's naive Bayes over the matched features) as a weighted geometric
 * mean, p ∝ p_diagnose^w · p_kg^(1−w). Why: `diagnose`'s evidence reasoner is tuned on whole
 * records and is sharp on a one-line complaint; as the only prior it made the later answers
 * work harder (interactive protocol, 642 held-out DDXPlus patients, questions planned over
 * the KG's reading: @1 74.6% with w = 1 vs 77.3% before sessions started from diagnose;
 * w = 0.25: @1 77.7%, @3 92.8%, @5 96.1%, @10 97.8%; docs/followups.md has the sweep). The
 * first turn still shows `diagnose`'s differential itself; the blend only shapes what the
 * answers update.
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

/** p ∝ a^w · b^(1−w) over the model's diseases (`b` index-aligned with them), normalised. */
export function blendPriors(model: FollowupModel, a: ReadonlyMap<string, number>, b: Float64Array, w: number): Map<string, number> {
  const FLOOR = 1e-12; // log of zero: a disease either side rules out stays possible, barely
  const logs = model.diseases.map((d, i) => w * Math.log(Math.max(a.get(d.id) ?? 0, FLOOR)) + (1 - w) * Math.log(Math.max(b[i] ?? 0, FLOOR)));
  const max = Math.max(...logs);
  const ps = logs.map((l) => Math.exp(l - max));
  const z = ps.reduce((s, p) => s + p, 0);
  return new Map(model.diseases.map((d, i) => [d.id, ps[i]! / z]));
}

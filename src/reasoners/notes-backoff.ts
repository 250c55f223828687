import type { KgSnapshot } from '../query/kg-snapshot.js';

/**
 * The m-estimate (Cestnik, "Estimating probabilities: a crucial task in machine learning", ECAI
 * 1990) of a feature learnt from notes only, beside α_notes:
 *
 *   p(f|d) = (c(f,d) + α_notes + m·q(f)) / (n_d + 2·α_notes + m)      q(f): share of all notes stating f
 *
 * A disease known from 4-9 real notes has not "never" shown what none of them wrote: a finding
 * most notes of every disease state (pain, a fever, high blood pressure in the history) is
 * likely for it too, and one few notes state is not. Additive α alone prices every unseen
 * finding alike, so a long real note's common findings cost the diseases whose few notes
 * happened not to state them, far beyond what a disease's own findings bring.
 *
 * Only diseases with fewer than `below` notes are backed off (issue 47: "smoothing for diseases
 * with 4-9 notes"): one with 10 or more estimates its own rates well enough, and backing those off cost
 * the vignette folds (10-12 notes per disease) 0.6 points top-1 (docs/notes.md).
 */
export interface NotesBackoff {
  /** Per feature learnt from notes only: α_notes + m·q(f) (0 for coded features). */
  numerator: Float64Array;
  /** Per disease: max(n_d, n_min) + 2·α_notes + m (0 for a disease without records or with `below` or more: not backed off). */
  denominator: Float64Array;
  /** p(f|d) of a counted edge of a feature learnt from notes only, over `observed` records. */
  p(f: number, count: number, observed: number): number;
  /** Σ over the features learnt from notes only that disease d never showed of log(1 − p0(f|d)); `shown`: its edges' features. */
  unseenLog1m(d: number, shown: ArrayLike<number>): number;
}

export function notesBackoffTables(s: KgSnapshot, p: { notesAlpha: number; m: number; minRecords: number; below?: number }): NotesBackoff {
  const F = s.features.length;
  const q = new Float64Array(F);
  for (const man of s.manifestations) for (let i = 0; i < man.features.length; i++) q[man.features[i]!]! += man.counts[i]!;
  const numerator = new Float64Array(F);
  const notes: number[] = [];
  for (let f = 0; f < F; f++) {
    if (!s.features[f]!.fromNotes) continue;
    notes.push(f);
    numerator[f] = p.notesAlpha + (p.m * (s.totalRecords > 0 ? Math.min(1, q[f]! / s.totalRecords) : 0));
  }
  // A disease with `below` records or more estimates its own rates (denominator 0: plain α_notes).
  const below = p.below ?? Infinity;
  const denominator = Float64Array.from(s.diseases, (d) => (d.recordCount > 0 && d.recordCount < below ? Math.max(d.recordCount, p.minRecords) + 2 * p.notesAlpha + p.m : 0));
  return {
    numerator,
    denominator,
    p: (f, count, observed) => (count + numerator[f]!) / (observed + 2 * p.notesAlpha + p.m),
    unseenLog1m(d, shown) {
      const den = denominator[d]!;
      if (den <= 0) return 0;
      const seen = new Set(Array.from(shown));
      let sum = 0;
      for (const f of notes) if (!seen.has(f)) sum += Math.log(1 - numerator[f]! / den);
      return sum;
    },
  };
}

import { ConfigError } from '../src/errors.js';
import { excessAssociation } from './diagnostic-association.js';
import { medianOfPositive } from '../src/util/median.js';

/**
 * How many features a KG may learn from notes (issue 24: "a notes KG has at most half as many
 * features as notes"). A KG learnt from N notes keeps at most `share × N` features that only the
 * notes name (vocabulary concepts and emergent phrases read from text; coded features are never
 * cut): a model with more parameters than observations memorises its notes instead of learning
 * its diseases, and a finding two notes of one disease wrote is an estimate, not knowledge.
 *
 * Which ones stay: each disease's best-backed findings first, round-robin over the diseases. A
 * feature's rank is its best rank in any disease's list (ordered by how many of that disease's
 * notes state it, then by how specific it is to that disease: its share of all notes that state it,
 * then by key, so the cut is deterministic). A budget by total notes alone leaves the diseases with
 * few or tersely written notes without their findings; by association (G-test p-value, mutual
 * information) it keeps rare phrases and loses the common, well-estimated ones.
 * Measured on the notes-pc quarters (naive Bayes alone, top-1; docs/notes.md, session 20): every
 * feature 88.8 (425 features per fold, 94% of the notes); at 50%: this ranking 87.7, by total
 * notes 86.3, by mutual information 85.5, by the strongest edge 83.8, by p-value 82.3. On the
 * vignette folds (the budget cuts 4 of 5 folds a little) 93.6 → 93.4.
 */
export interface NoteFeatureBudgetInput {
  /** Features learnt from notes only, as kept by the support rules (candidates for the cut). */
  candidates: ReadonlySet<string>;
  /** Per disease: how many of its notes state each feature present. */
  notedPresent: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Records with notes, all diseases together (the N of the share). */
  notes: number;
  /** Diseases with notes (the D of the per-disease floor); absent: those of notedPresent. */
  diseases?: number;
  /** Per disease: how many records with notes it has (needed by the 'association' rank). */
  notedPerDisease?: ReadonlyMap<string, number>;
}

/**
 * How a disease's findings are ordered for the round-robin: 'support' (most of its notes first,
 * then the share of the finding's notes that are its own) or 'association' (the one-sided G of
 * "note states it" x "note is of this disease", diagnostic-association.ts: backed AND specific
 * first; a finding stated no more often than elsewhere ranks last for that disease).
 */
export type NoteFeatureRank = 'support' | 'association' | 'auto';

/**
 * 'auto': 'association' when the median disease with notes has fewer than this many (a small
 * corpus of real notes, issue 47: 4-9 per disease), else 'support'. Measured (docs/notes.md): on
 * the real-notes folds (3-7 training notes per disease) association lifts naive Bayes's top-3 by
 * 3-9 points; on the notes-pc quarters (~22 per disease) it cost 1.2 points top-1.
 */
export const ASSOCIATION_BELOW_MEDIAN_NOTES = 10;

/** The rank 'auto' resolves to for these notes per disease. */
export function resolveNoteFeatureRank(rank: NoteFeatureRank, notedPerDisease: ReadonlyMap<string, number> | undefined): 'support' | 'association' {
  if (rank !== 'auto') return rank;
  const median = medianOfPositive(notedPerDisease?.values() ?? []);
  return median !== null && median < ASSOCIATION_BELOW_MEDIAN_NOTES ? 'association' : 'support';
}

/**
 * The per-disease floor (issue 47). `share × notes` was tuned on short synthetic notes, 10-40 per
 * disease; a small corpus of real notes (148 notes of 25 diagnoses, 4-9 each) got 74 features,
 * about 3 per disease, and long real notes state far more than 3 things that tell their disease
 * apart. So the budget is at least `perDisease × diseases`, and never `ceiling × notes` or more:
 * the KG still has fewer features than notes (a feature per note is a memorised corpus).
 * With the defaults (decompose-features.ts) the floor never binds on the shipped synthetic corpora
 * (49 diseases at 540+ notes, 15 at 450).
 */
export interface NoteBudgetFloor {
  perDisease: number;
  ceiling: number;
}

export const NO_BUDGET_FLOOR: NoteBudgetFloor = { perDisease: 0, ceiling: 1 };

/** How many features learnt from notes the KG keeps (Infinity for share Infinity: no budget). */
export function noteFeatureBudget(notes: number, diseases: number, share: number, floor: NoteBudgetFloor = NO_BUDGET_FLOOR): number {
  if (!(share < Infinity)) return Infinity;
  const byShare = Math.floor(share * notes);
  // The ceiling caps the floor only: a share the caller set above it is the caller's choice.
  const byFloor = Math.min(Math.floor(floor.perDisease * diseases), Math.ceil(floor.ceiling * notes) - 1);
  return Math.max(byShare, byFloor);
}

/** The candidates to leave out so that at most the budget (noteFeatureBudget) remains (none when under budget). */
export function overNoteFeatureBudget(input: NoteFeatureBudgetInput, share: number, floor: NoteBudgetFloor = NO_BUDGET_FLOOR, asked: NoteFeatureRank = 'support'): Set<string> {
  const rank = resolveNoteFeatureRank(asked, input.notedPerDisease);
  const budget = noteFeatureBudget(input.notes, input.diseases ?? input.notedPresent.size, share, floor);
  if (input.candidates.size <= budget) return new Set();
  const total = new Map<string, number>();
  for (const said of input.notedPresent.values()) for (const [k, c] of said) if (input.candidates.has(k)) total.set(k, (total.get(k) ?? 0) + c);
  const bestRank = new Map<string, number>();
  const notes = input.notedPerDisease;
  if (rank === 'association' && !notes) throw new ConfigError('the association rank of the note feature budget needs the notes per disease');
  for (const [disease, said] of input.notedPresent) {
    const ranked = [...said.entries()].filter(([k]) => input.candidates.has(k));
    if (rank === 'association') {
      const n = notes!.get(disease) ?? 0;
      const g = new Map(ranked.map(([k, c]) => [k, excessAssociation({ present: c, notes: n }, { present: total.get(k)! - c, notes: input.notes - n })]));
      ranked.sort((a, b) => g.get(b[0])! - g.get(a[0])! || b[1] - a[1] || a[0].localeCompare(b[0]));
    } else ranked.sort((a, b) => b[1] - a[1] || b[1] / total.get(b[0])! - a[1] / total.get(a[0])! || a[0].localeCompare(b[0]));
    ranked.forEach(([k], i) => bestRank.set(k, Math.min(bestRank.get(k) ?? Infinity, i)));
  }
  // A candidate no noted record states present (a coded source's records only) ranks last.
  const order = [...input.candidates].sort((a, b) => (bestRank.get(a) ?? Infinity) - (bestRank.get(b) ?? Infinity) || (total.get(b) ?? 0) - (total.get(a) ?? 0) || a.localeCompare(b));
  return new Set(order.slice(Math.max(0, budget)));
}

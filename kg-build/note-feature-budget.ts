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
}

/** The candidates to leave out so that at most `share × notes` of them remain (none when under budget). */
export function overNoteFeatureBudget(input: NoteFeatureBudgetInput, share: number): Set<string> {
  const budget = Math.floor(share * input.notes);
  if (!(share < Infinity) || input.candidates.size <= budget) return new Set();
  const total = new Map<string, number>();
  for (const said of input.notedPresent.values()) for (const [k, c] of said) if (input.candidates.has(k)) total.set(k, (total.get(k) ?? 0) + c);
  const bestRank = new Map<string, number>();
  for (const said of input.notedPresent.values()) {
    const ranked = [...said.entries()].filter(([k]) => input.candidates.has(k));
    ranked.sort((a, b) => b[1] - a[1] || b[1] / total.get(b[0])! - a[1] / total.get(a[0])! || a[0].localeCompare(b[0]));
    ranked.forEach(([k], i) => bestRank.set(k, Math.min(bestRank.get(k) ?? Infinity, i)));
  }
  // A candidate no noted record states present (a coded source's records only) ranks last.
  const order = [...input.candidates].sort((a, b) => (bestRank.get(a) ?? Infinity) - (bestRank.get(b) ?? Infinity) || (total.get(b) ?? 0) - (total.get(a) ?? 0) || a.localeCompare(b));
  return new Set(order.slice(Math.max(0, budget)));
}

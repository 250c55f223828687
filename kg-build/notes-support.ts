import { associationPValue } from './diagnostic-association.js';
import { isEmergentKey } from './emergent-concepts.js';
import type { DiseaseLearnt } from './notes-learnt.js';

/**
 * What the KG keeps of what notes say (issue 24). A manifestation edge learnt from notes is a
 * claim about a disease: "its patients show this". One note's finding is that note's, as a
 * vocabulary concept seen in one record is (emergent-concepts.ts); the edge needs `minNoteSupport`
 * notes of its disease. A disease with fewer than `thinDiseaseNotes` notes keeps what a single note
 * says: there one note is a fifth or more of all the KG knows of it, and dropping its findings
 * left the KG nothing to tell such diseases apart by (docs/notes.md: 5-9 points of naive Bayes on
 * 2-4 notes per disease, 1-2 points on 8-10). An emergent concept also has to be diagnostic: a
 * phrase spread over the diseases like a common word ("same", "brought", "normal") is left out.
 * Both are counted in the build report, nothing is dropped silently.
 *
 * A single note's finding is kept after all when the finding is common (`sharedFindingDiseases`:
 * 2+ notes of at least that many other diseases back it): the feature is in the KG anyway, and
 * for naive Bayes "one of this disease's twelve notes named the cough" (p ≈ 0.1) is not "none did"
 * (p0 ≈ 0.02): without it an anaphylaxis note's cough cost 3 nats. No feature comes from one note.
 * Measured on the dev folds (docs/notes.md, session 18): naive Bayes alone +0.3 on the vignettes,
 * +0.9 on the notes-pc quarters at 4 diseases (90 / 83% of edges backed by 2+ notes); at 1 disease
 * +0.8 / +4.5 but 78 / 61% backed, below issue 24's 80%. Since session 20 the default is 5: with
 * the feature budget (note-feature-budget.ts) the KG keeps the common findings, whose single-note
 * edges then weigh more (at 4: 79% backed, at 5: 84%, −0.2 / −0.7 points).
 */
export interface NotesSupportOptions {
  minNoteSupport: number;
  thinDiseaseNotes: number;
  emergentMaxP: number;
  sharedFindingDiseases: number;
}

export interface NotesSupportReport {
  /** Edges learnt from notes left out for being a single note's (fewer than minNoteSupport notes). */
  unsupportedEdges: number;
  /** Diseases with notes but fewer than thinDiseaseNotes of them (their single-note edges are kept). */
  thinDiseases: number;
  /** Emergent concepts shared by k patients but associated with no disease. */
  undiagnostic: number;
  /** Single-note edges kept because the finding is common (sharedFindingDiseases); not among unsupportedEdges. */
  sharedFindingEdges: number;
  /** Features learnt from notes left out by the build's budget (note-feature-budget.ts), with their edges. */
  overBudgetFeatures: number;
  /** Per disease with notes: what its notes taught the KG (notes-learnt.ts), filled in once the budget is applied. */
  learnt?: DiseaseLearnt[];
}

/** An edge as proposed: whether `keeps` kept it, and its feature key. */
export interface ProposedEdge {
  kept: boolean;
  key: string;
}

export interface NotesSupport {
  /** First pass, edge by edge: does the edge meet the rules on its own? */
  keeps(diseaseId: string, key: string, count: number): boolean;
  /** Second pass, over every proposed edge: the kept ones, and single-note edges of a common finding. */
  settle<T extends ProposedEdge>(edges: readonly T[]): T[];
  readonly report: NotesSupportReport;
}

export function notesSupport(
  input: { noted: ReadonlyMap<string, number>; notedPresent: ReadonlyMap<string, ReadonlyMap<string, number>>; noteOnly: (key: string) => boolean },
  opts: NotesSupportOptions,
): NotesSupport {
  const undiagnostic = opts.emergentMaxP < 1 ? unassociated(input.noted, input.notedPresent, opts.emergentMaxP) : new Set<string>();
  const report: NotesSupportReport = { unsupportedEdges: 0, thinDiseases: [...input.noted.values()].filter((n) => n > 0 && n < opts.thinDiseaseNotes).length, undiagnostic: undiagnostic.size, sharedFindingEdges: 0, overBudgetFeatures: 0 };
  // Edges refused for their note count only (not an undiagnostic concept's): the ones settle may keep.
  const refused = new Set<string>();
  return {
    report,
    settle(edges) {
      const backedIn = new Map<string, number>();
      for (const e of edges) if (e.kept) backedIn.set(e.key, (backedIn.get(e.key) ?? 0) + 1);
      return edges.filter((e) => {
        if (e.kept) return true;
        if (!refused.has(e.key) || (backedIn.get(e.key) ?? 0) < Math.max(1, opts.sharedFindingDiseases)) return false;
        report.unsupportedEdges--;
        report.sharedFindingEdges++;
        return true;
      });
    },
    keeps(diseaseId, key, count) {
      if (undiagnostic.has(key)) return false;
      if (!input.noteOnly(key) || count >= opts.minNoteSupport || (input.noted.get(diseaseId) ?? 0) < opts.thinDiseaseNotes) return true;
      report.unsupportedEdges++;
      refused.add(key);
      return false;
    },
  };
}

/** Emergent concepts no disease shows beyond the rest (diagnostic-association.ts). */
function unassociated(noted: ReadonlyMap<string, number>, present: ReadonlyMap<string, ReadonlyMap<string, number>>, maxP: number): Set<string> {
  const keys = new Set<string>();
  for (const said of present.values()) for (const key of said.keys()) if (isEmergentKey(key)) keys.add(key);
  const out = new Set<string>();
  for (const key of keys) {
    const shares = [...noted.entries()].map(([d, notes]) => ({ notes, present: present.get(d)?.get(key) ?? 0 }));
    if (associationPValue(shares) >= maxP) out.add(key);
  }
  return out;
}

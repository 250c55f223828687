import { associationPValue } from './diagnostic-association.js';
import { isEmergentKey } from './emergent-concepts.js';

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
 */
export interface NotesSupportOptions {
  minNoteSupport: number;
  thinDiseaseNotes: number;
  emergentMaxP: number;
}

export interface NotesSupportReport {
  /** Edges learnt from notes left out for being a single note's (fewer than minNoteSupport notes). */
  unsupportedEdges: number;
  /** Diseases with notes but fewer than thinDiseaseNotes of them (their single-note edges are kept). */
  thinDiseases: number;
  /** Emergent concepts shared by k patients but associated with no disease. */
  undiagnostic: number;
}

export interface NotesSupport {
  keeps(diseaseId: string, key: string, count: number): boolean;
  readonly report: NotesSupportReport;
}

export function notesSupport(
  input: { noted: ReadonlyMap<string, number>; notedPresent: ReadonlyMap<string, ReadonlyMap<string, number>>; noteOnly: (key: string) => boolean },
  opts: NotesSupportOptions,
): NotesSupport {
  const undiagnostic = opts.emergentMaxP < 1 ? unassociated(input.noted, input.notedPresent, opts.emergentMaxP) : new Set<string>();
  const report: NotesSupportReport = { unsupportedEdges: 0, thinDiseases: [...input.noted.values()].filter((n) => n > 0 && n < opts.thinDiseaseNotes).length, undiagnostic: undiagnostic.size };
  return {
    report,
    keeps(diseaseId, key, count) {
      if (undiagnostic.has(key)) return false;
      if (!input.noteOnly(key) || count >= opts.minNoteSupport || (input.noted.get(diseaseId) ?? 0) < opts.thinDiseaseNotes) return true;
      report.unsupportedEdges++;
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

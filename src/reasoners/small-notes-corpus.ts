import type { KgSnapshot } from '../query/kg-snapshot.js';
import type { NbParams } from './scoring-naive-bayes.js';
import { medianOfPositive } from '../util/median.js';

/**
 * A KG learnt from a small corpus of notes (issue 47: 148 real notes of 25 diagnoses, 3-7 a
 * disease in a training fold): the median disease has fewer than `below` records. The vignette
 * corpus (10-12 notes a disease) and the notes-pc quarters (~22) are not small, so what is scoped
 * to this leaves their figures as they are (the same line as notes-backoff.ts and the 'auto'
 * budget rank of kg-build/note-feature-budget.ts).
 */
export function smallNotesCorpus(s: Pick<KgSnapshot, 'diseases'>, below: number): boolean {
  // Asked on every query of a notes KG: the median is the snapshot's, computed once.
  let median = medians.get(s);
  if (median === undefined) medians.set(s, (median = medianOfPositive(s.diseases.map((d) => d.recordCount))));
  return median !== null && median < below;
}

const medians = new WeakMap<object, number | null>();

/**
 * The reasoner's parameters for a KG learnt from notes alone: on a small corpus, γ_notes is
 * `smallNotesUnreportedWeight` and the vote prior's weight `smallNotesVoteWeight` when set.
 * A long real note that names none of a disease's few findings says more against it than a short
 * synthetic one does (real notes state most of what was examined); and a hierarchy clustered from
 * a few dozen features read from notes makes the subcategory vote a recount of the same findings
 * rather than evidence of its own. Both measured on the real-notes folds (docs/notes.md, round 4).
 */
export function notesAloneParams<P extends NbParams & { smallNotesUnreportedWeight?: number; smallNotesVoteWeight?: number; voteWeight: number }>(s: Pick<KgSnapshot, 'diseases'>, p: P): P {
  if (!smallNotesCorpus(s, p.notesBackoffBelow ?? SMALL_CORPUS_BELOW)) return p;
  return {
    ...p,
    ...(p.smallNotesUnreportedWeight === undefined ? {} : { notesUnreportedWeight: p.smallNotesUnreportedWeight }),
    ...(p.smallNotesVoteWeight === undefined ? {} : { voteWeight: p.smallNotesVoteWeight }),
  };
}

/** Median notes a disease under which a corpus is small when notesBackoffBelow is not set. */
export const SMALL_CORPUS_BELOW = 10;

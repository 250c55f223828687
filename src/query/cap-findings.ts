/**
 * What a request reads when its text gives more findings than DXGRAPH_MAX_FINDINGS (issue 47): a
 * real note (a 6-11k-character consult, a discharge summary) is no abuse, so it is read, not
 * refused. The request's own structured findings come first, then the text's by the role of the
 * section they sit in (presentation, exam, results, review of systems, history, social, family,
 * treatment; sections/section-rules.ts), in text order within a role. The trace says how many were
 * read and what was left out, per section kind.
 */
import { keepRank, sectionRole } from '../clinical-text/sections/index.js';
import type { NoteSections } from '../clinical-text/decompose.js';
import type { InputFinding, NoteReadTrace } from './contracts.js';

export interface FindingsLeftOut {
  /** Findings read (at most the cap). */
  read: number;
  /** Findings decomposed but not read: 0 when all were. */
  leftOut: number;
  /** Section kind ("ros", "pmh"; "text" for a finding outside any section) → findings left out. */
  bySection: Record<string, number>;
}

/** The first `cap` findings in keep order, returned in their original order. */
export function capFindings(findings: readonly InputFinding[], structured: number, cap: number): { findings: InputFinding[]; read: FindingsLeftOut } {
  if (findings.length <= cap) return { findings: [...findings], read: { read: findings.length, leftOut: 0, bySection: {} } };
  const rank = (i: number) => (i < structured ? -1 : keepRank(sectionRole(findings[i]!.section)));
  const order = findings.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b);
  const kept = new Set(order.slice(0, cap));
  const bySection: Record<string, number> = {};
  findings.forEach((f, i) => {
    if (kept.has(i)) return;
    const k = f.section ?? 'text';
    bySection[k] = (bySection[k] ?? 0) + 1;
  });
  return { findings: findings.filter((_, i) => kept.has(i)), read: { read: cap, leftOut: findings.length - cap, bySection } };
}

/** The trace's account of a note's reading; absent when the text was no note and nothing was left out. */
export function noteReadTrace(note: NoteSections | undefined, read: FindingsLeftOut): NoteReadTrace | undefined {
  if (!note && read.leftOut === 0) return undefined;
  return { sections: note?.kinds ?? [], sectionsLeftOut: note?.leftOut ?? [], findingsRead: read.read, findingsLeftOut: read.leftOut, findingsLeftOutBySection: read.bySection };
}

/**
 * The clause guard before decomposition (its cost grows with clauses: 2,800 repeated "fever, " took
 * 0.3 s of event loop). Real notes write a clause break every 12-45 characters (the longest, 31k
 * characters, has about 730 breaks), a hostile list every 7; so a text is refused only when it
 * has more than `limit` breaks AND they come denser than one per CLAUSE_CHARS characters: a list
 * of words, not a note. The text limit (DXGRAPH_MAX_TEXT_CHARS) bounds the rest.
 */
export const CLAUSE_CHARS = 10;
export const tooManyClauses = (text: string, breaks: number, limit: number): boolean => breaks > limit && breaks * CLAUSE_CHARS > text.length;

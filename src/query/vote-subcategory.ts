import type { FeatureMatch, SubcategoryVote } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';

/**
 * Upward traversal voting (MedRAG eq. 12-13): each matched feature node t_i votes for
 * the subcategory at the shortest upward distance; when several tie, they share the
 * one vote equally. Absent findings do not vote (they are evidence against, not for).
 */
export interface VoteInput {
  matches: FeatureMatch[];
  /** How many subcategories to keep as candidates. */
  candidates: number;
}

export interface VoteOutput {
  /** Every subcategory with a vote, most first (ties by name for stable output). */
  votes: SubcategoryVote[];
  winner: SubcategoryVote | null;
  candidates: SubcategoryVote[];
}

export function voteSubcategory(snapshot: KgSnapshot, input: VoteInput): VoteOutput {
  const totals = new Float64Array(snapshot.subcategories.length);
  // T is a set of nodes (eq. 11): a feature matched by two findings votes once.
  const voters = new Set<number>();
  for (const m of input.matches) {
    if (m.polarity !== 'present') continue;
    const f = snapshot.featureIndex.get(m.featureId);
    if (f !== undefined) voters.add(f);
  }
  for (const f of voters) {
    const nearest = snapshot.featureSubcategories[f]!;
    for (const s of nearest) totals[s]! += 1 / nearest.length;
  }
  const votes: SubcategoryVote[] = [];
  totals.forEach((v, s) => {
    if (v > 0) votes.push({ subcategoryId: snapshot.subcategories[s]!.id, name: snapshot.subcategories[s]!.name, votes: round(v) });
  });
  votes.sort((a, b) => b.votes - a.votes || a.name.localeCompare(b.name));
  return { votes, winner: votes[0] ?? null, candidates: votes.slice(0, Math.max(1, input.candidates)) };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

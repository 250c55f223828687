import type { FeatureMatch, InputFinding } from './contracts.js';

/**
 * Did the input carry enough to rank? (issue 17) A differential from one matched finding, or
 * from none (gibberish, a text about something the KG does not hold), is mostly the prior:
 * the response says so, and the follow-up questions become the useful part of the answer.
 */
export interface EvidenceAssessment {
  /** Present and absent findings that reached at least one KG feature. */
  matchedFindings: number;
  /** Distinct features reported present. */
  presentFeatures: number;
  unmatchedFindings: number;
}

export interface Insufficient {
  reason: 'no-finding-matched' | 'too-few-findings-matched';
  message: string;
}

/** Fewer present features than this and the ranking is flagged (a single finding rarely separates 49 diseases). */
export const MIN_PRESENT_FEATURES = 2;

export function assessEvidence(findings: readonly InputFinding[], matches: readonly FeatureMatch[]): { assessment: EvidenceAssessment; insufficient: Insufficient | null } {
  const matched = new Set(matches.map((m) => m.findingIndex));
  const present = new Set(matches.filter((m) => m.polarity === 'present').map((m) => m.featureId));
  const assessment = { matchedFindings: matched.size, presentFeatures: present.size, unmatchedFindings: findings.length - matched.size };
  if (matched.size === 0) {
    return { assessment, insufficient: { reason: 'no-finding-matched', message: 'no finding matched the knowledge graph: the differential is the prior only; answer the follow-up questions or describe the symptoms' } };
  }
  if (present.size < MIN_PRESENT_FEATURES) {
    return { assessment, insufficient: { reason: 'too-few-findings-matched', message: `only ${present.size} finding${present.size === 1 ? '' : 's'} reported present matched the knowledge graph: too little to rank; answer the follow-up questions` } };
  }
  return { assessment, insufficient: null };
}

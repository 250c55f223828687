import type { FollowUpQuestion } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { sigma } from './discriminability.js';

/**
 * Proactive follow-up questions (MedRAG eq. 15-16): among the features of the candidate
 * diseases that the patient has not reported, the most discriminative first
 * (sigma = (n-1)/deg). Rankers sit behind `FollowUpRanker` so an information-gain
 * ranker can replace this one without touching the pipeline.
 */
export interface FollowUpInput {
  snapshot: KgSnapshot;
  /** Disease indices whose features may be asked about. */
  candidateDiseases: number[];
  /** Feature ids already reported (present or absent). */
  reportedFeatureIds: Set<string>;
  limit: number;
}

export interface FollowUpRanker {
  readonly name: string;
  rank(input: FollowUpInput): FollowUpQuestion[];
}

/** The question to ask for a feature: the source's own question for coded features. */
export function questionText(s: KgSnapshot, f: number): string {
  const node = s.features[f]!;
  // Boolean questions carry "yes" as their value: the question alone is the follow-up.
  if (node.question && node.valueText && !/^yes$/i.test(node.valueText)) return `${node.question} ${node.valueText}`;
  if (node.question) return node.question;
  return `Does the patient have: ${node.text}?`;
}

export class SigmaRanker implements FollowUpRanker {
  readonly name = 'sigma';

  rank(input: FollowUpInput): FollowUpQuestion[] {
    const s = input.snapshot;
    // A source question already answered (any of its values) is not asked again.
    const answeredCodes = new Set<string>();
    for (const id of input.reportedFeatureIds) {
      const f = s.featureIndex.get(id);
      const code = f === undefined ? null : s.features[f]!.code;
      if (code) answeredCodes.add(code);
    }
    // Best prevalence of each unreported feature among the candidates: the tie-breaker
    // when sigma ties (many features belong to a single disease).
    const prevalence = new Map<number, number>();
    for (const d of input.candidateDiseases) {
      const m = s.manifestations[d]!;
      m.features.forEach((f, i) => {
        const node = s.features[f]!;
        if (input.reportedFeatureIds.has(node.id) || (node.code && answeredCodes.has(node.code))) return;
        prevalence.set(f, Math.max(prevalence.get(f) ?? 0, m.prevalence[i]!));
      });
    }
    const ranked = [...prevalence.entries()]
      .map(([f, p]) => ({ f, p, score: sigma(s, f) }))
      .sort((a, b) => b.score - a.score || b.p - a.p || a.f - b.f);
    const out: FollowUpQuestion[] = [];
    const asked = new Set<string>();
    for (const r of ranked) {
      if (out.length >= input.limit) break;
      const text = questionText(s, r.f);
      if (asked.has(text)) continue;
      asked.add(text);
      const id = s.features[r.f]!.id;
      out.push({ id: `fu:${id}`, featureId: id, text, score: r.score, ranker: this.name });
    }
    return out;
  }
}

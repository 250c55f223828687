import type { FollowUpQuestion } from './contracts.js';
import type { KgSnapshot } from './kg-snapshot.js';
import { sigma } from './discriminability.js';
import { shippedVoice } from '../presentation/shipped-voice.js';

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

/**
 * The question to ask for a feature, in the clinical voice (src/presentation/): a coded source's
 * reviewed question ("Fever?"), a value asked as its label ("Pain at lower chest?"); null when
 * the feature has no readable clinical label (it is not asked about).
 */
export function questionText(s: KgSnapshot, f: number): string | null {
  return shippedVoice().yesNoQuestion(s.features[f]!);
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
      if (text === null || asked.has(text)) continue;
      asked.add(text);
      const id = s.features[r.f]!.id;
      out.push({ id: `fu:${id}`, featureId: id, text, score: r.score, ranker: this.name });
    }
    return out;
  }
}

/**
 * FIND §3.2.2 automatic annotation by sequential masking. For an input Q = [s_1..s_n] with
 * gold diagnosis a, the diagnoser answers â on Q and â' on Q' = Q without s_i:
 *  (1) â ≈ a (full input correct):
 *      â' wrong            → A  ("â' significantly changes, causing diagnostic errors")
 *      â' still correct    → C, upgraded to B when s_i alone retrieves relevant knowledge
 *                            ("we introduce an additional retrieval step for label = C")
 *  (2) â ≠ a (full input wrong): s_i is used as a retrieval query;
 *      retrieves the gold disease's documents → B, otherwise → C.
 * ICA-RAG §3.2.2 is the same without the C→B upgrade in (1): `variant: 'ica-rag'`.
 * "≈" is: the gold disease id is among the diagnoser's top `correctAtRank` answers.
 */
import { mapWithConcurrency } from './concurrency.js';
import type { SentenceLabel } from './types.js';

/** Answers a diagnosis for a list of sentences: ranked disease ids, best first. */
export interface Diagnoser {
  /** Must return [] (not throw) when no answer could be read; throw only on outages. */
  diagnose(sentences: readonly string[]): Promise<readonly string[]>;
}

/** Does this sentence, used alone as a query, retrieve records of the gold disease? */
export interface RetrievalProbe {
  retrievesGold(input: { sentence: string; goldDiseaseId: string; excludeRecordId: string }): Promise<boolean>;
}

export interface AnnotationExample {
  /** Record id: excluded from the probe's retrieval so a record cannot retrieve itself. */
  id: string;
  sentences: readonly string[];
  goldDiseaseId: string;
}

export type LabelReason = 'masked-wrong' | 'masked-still-correct' | 'retrieves-gold' | 'no-retrieval';

export interface AnnotatedSentence {
  exampleId: string;
  index: number;
  text: string;
  label: SentenceLabel;
  reason: LabelReason;
}

export interface AnnotationOptions {
  /** Bounds the work: examples beyond this are not annotated. */
  maxExamples: number;
  /** Longer examples (and empty ones) are skipped: each costs n+1 diagnoser calls. */
  maxSentences: number;
  correctAtRank: number;
  variant: 'find' | 'ica-rag';
  /** Examples annotated at once (LLM diagnosers benefit; the result order never changes). */
  concurrency: number;
}

export const DEFAULT_ANNOTATION_OPTIONS: AnnotationOptions = { maxExamples: 500, maxSentences: 60, correctAtRank: 1, variant: 'find', concurrency: 4 };

export interface AnnotationResult {
  sentences: AnnotatedSentence[];
  stats: { examples: number; skipped: number; unmaskedCorrect: number; diagnoseCalls: number; probeCalls: number; labels: Record<SentenceLabel, number> };
}

export async function annotateByMasking(
  examples: readonly AnnotationExample[],
  services: { diagnoser: Diagnoser; probe: RetrievalProbe },
  options: Partial<AnnotationOptions> = {},
): Promise<AnnotationResult> {
  const opts = { ...DEFAULT_ANNOTATION_OPTIONS, ...options };
  const stats: AnnotationResult['stats'] = { examples: 0, skipped: 0, unmaskedCorrect: 0, diagnoseCalls: 0, probeCalls: 0, labels: { A: 0, B: 0, C: 0 } };
  const chosen = examples.slice(0, opts.maxExamples).filter((e) => {
    const fits = e.sentences.length > 0 && e.sentences.length <= opts.maxSentences;
    if (!fits) stats.skipped++;
    return fits;
  });
  const isCorrect = (answer: readonly string[], gold: string) => answer.slice(0, opts.correctAtRank).includes(gold);

  const annotateOne = async (ex: AnnotationExample): Promise<AnnotatedSentence[]> => {
    const probe = async (sentence: string) => {
      stats.probeCalls++;
      return services.probe.retrievesGold({ sentence, goldDiseaseId: ex.goldDiseaseId, excludeRecordId: ex.id });
    };
    stats.diagnoseCalls++;
    const fullCorrect = isCorrect(await services.diagnoser.diagnose(ex.sentences), ex.goldDiseaseId);
    if (fullCorrect) stats.unmaskedCorrect++;
    const out: AnnotatedSentence[] = [];
    for (let i = 0; i < ex.sentences.length; i++) {
      const text = ex.sentences[i]!;
      let label: SentenceLabel;
      let reason: LabelReason;
      if (fullCorrect) {
        stats.diagnoseCalls++;
        const masked = [...ex.sentences.slice(0, i), ...ex.sentences.slice(i + 1)];
        if (!isCorrect(await services.diagnoser.diagnose(masked), ex.goldDiseaseId)) [label, reason] = ['A', 'masked-wrong'];
        else if (opts.variant === 'find' && (await probe(text))) [label, reason] = ['B', 'retrieves-gold'];
        else [label, reason] = ['C', 'masked-still-correct'];
      } else if (await probe(text)) [label, reason] = ['B', 'retrieves-gold'];
      else [label, reason] = ['C', 'no-retrieval'];
      stats.labels[label]++;
      out.push({ exampleId: ex.id, index: i, text, label, reason });
    }
    stats.examples++;
    return out;
  };

  const results = await mapWithConcurrency(chosen, Math.max(1, opts.concurrency), annotateOne);
  return { sentences: results.flat(), stats };
}

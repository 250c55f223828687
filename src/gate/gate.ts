/**
 * The adaptive information-density gate (FIND §3.2.1): segment the input, label each
 * sentence A/B/C with the classifier, score I_norm (eq. 2-3) and decide direct / retrieve /
 * retrieve-warn. The returned object is exactly `DiagnoseResult.trace.gate`.
 * Services are passed in; createGate does no I/O.
 */
import type { Embeddings } from '@langchain/core/embeddings';
import { decideGate } from './gate-decision.js';
import { informationDensity } from './information-density.js';
import { segmentSentences } from './segment-sentences.js';
import type { SentenceClassifier } from './sentence-classifier.js';
import type { GateParams, GateTrace } from './types.js';

export interface Gate {
  readonly params: Readonly<GateParams>;
  /** Free text: segmented with the clinical sentence splitter first. */
  assess(text: string): Promise<GateTrace>;
  /** Already-split units, e.g. structured findings rendered one per sentence. */
  assessSentences(sentences: readonly string[]): Promise<GateTrace>;
}

export function createGate(deps: { classifier: SentenceClassifier; embedder: Embeddings; params: GateParams }): Gate {
  const { classifier, embedder, params } = deps;
  const assessSentences = async (sentences: readonly string[]): Promise<GateTrace> => {
    const texts = sentences.map((s) => s.trim()).filter((s) => s !== '');
    // One batched call: a remote embedder answers all sentences in one round trip.
    const vectors = await embedAll(embedder, texts);
    const labelled = texts.map((text, i) => ({ text, label: classifier.predict(vectors[i]!, text).label }));
    const score = informationDensity(labelled.map((s) => s.label), params);
    const { decision, warning } = decideGate(score, params);
    return { score, decision, sentences: labelled, warning };
  };
  return {
    params,
    assessSentences,
    assess: (text) => assessSentences(segmentSentences(text)),
  };
}

/** The offline embedder has a synchronous Float32Array path; others go through LangChain's batch call. */
async function embedAll(embedder: Embeddings, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const direct = (embedder as Partial<{ embedVector: (t: string) => Float32Array }>).embedVector;
  if (typeof direct === 'function') return texts.map((t) => direct.call(embedder, t));
  return (await embedder.embedDocuments(texts)).map((v) => Float32Array.from(v));
}

import type { ConceptIndex, FormEntry } from './concept-index.js';

/**
 * The concept layer's embedding fallback: a finding whose words meet no surface form is
 * compared, by cosine, with every concept form (not with question sentences: a short phrase
 * against a short phrase is what static embeddings do well). WordLlama puts the right DDXPlus
 * evidence first for 86% of phrases whose own wording the lexicon lacks, hashed n-grams for
 * 75% (bench/phrase-match.ts, lexicon-heldout); docs/free-text.md.
 */
export interface PhraseEmbedder {
  readonly id: string;
  /** L2-normalised vectors, synchronously (static embeddings: microseconds per phrase). */
  embedVectors(texts: readonly string[]): Float32Array[];
}

export interface FormVectors {
  embedderId: string;
  dim: number;
  /** Row-major, one unit vector per entry of `entries`. */
  matrix: Float32Array;
  entries: FormEntry[];
}

/** Concepts a phrase may stand for on its own: yes/no concepts and label-derived features (not sites, heads or values). */
// Family-history cores stand for the relative's condition only; the dictionary path reads them in scope.
// A form whose meaning turns on a negation ("no condoms" = unprotected sex) is left to the dictionary:
// static word vectors blur the "no", and "condom" would land on it.
const NEGATING = /\b(?:no|not|without|never|non|none|nothing)\b|n't\b/i;
// A treatment form ("epipen") would let a denied treatment ("we don't have an epipen") deny the condition.
const standsAlone = (e: FormEntry) => !e.familyOnly && !e.presentOnly && !NEGATING.test(e.form) && (e.target.kind === 'evidence' || e.target.kind === 'feature');

const cache = new WeakMap<ConceptIndex, Map<string, FormVectors>>();

export function formVectorsFor(index: ConceptIndex, embedder: PhraseEmbedder): FormVectors {
  const perIndex = cache.get(index) ?? new Map<string, FormVectors>();
  cache.set(index, perIndex);
  const hit = perIndex.get(embedder.id);
  if (hit) return hit;
  const entries = index.entries.filter((e) => standsAlone(e) && e.raw === null);
  const vectors = embedder.embedVectors(entries.map((e) => e.form));
  const dim = vectors[0]?.length ?? 0;
  const matrix = new Float32Array(entries.length * dim);
  vectors.forEach((v, i) => matrix.set(v, i * dim));
  const built = { embedderId: embedder.id, dim, matrix, entries };
  perIndex.set(embedder.id, built);
  return built;
}

/** The closest concept form to a phrase, when its cosine reaches `threshold`. */
export function nearestForm(forms: FormVectors, vector: Float32Array, threshold: number): { entry: FormEntry; score: number } | null {
  let best = -1;
  let at = -1;
  for (let i = 0; i < forms.entries.length; i++) {
    let s = 0;
    const o = i * forms.dim;
    for (let j = 0; j < forms.dim; j++) s += forms.matrix[o + j]! * vector[j]!;
    if (s > best) {
      best = s;
      at = i;
    }
  }
  return at >= 0 && best >= threshold ? { entry: forms.entries[at]!, score: best } : null;
}

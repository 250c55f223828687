import type { ConceptIndex, FormEntry } from './concept-index.js';
import { SIMD_ROUNDING, simdDots, type SimdDots } from './simd-dots.js';

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
  /**
   * Per entry, the norm of its row past each checkpoint of CHECKPOINTS (row-major,
   * `checkpoints.length` per entry): what the rest of a dot product can still add (nearestForm).
   */
  tails: Float64Array;
  checkpoints: readonly number[];
  /** The largest row norm (1 up to float32 rounding): bounds a form's share of a rounding error (nearestForm). */
  maxNorm: number;
}

/** Concepts a phrase may stand for on its own: yes/no concepts and label-derived features (not sites, heads or values). */
// Family-history cores stand for the relative's condition only; the dictionary path reads them in scope.
// A form whose meaning turns on a negation ("no condoms" = unprotected sex) is left to the dictionary:
// static word vectors blur the "no", and "condom" would land on it.
const NEGATING = /\b(?:no|not|without|never|non|none|nothing)\b|n't\b/i;
// A treatment form ("epipen") would let a denied treatment ("we don't have an epipen") deny the condition.
const standsAlone = (e: FormEntry) => !e.familyOnly && !e.presentOnly && e.withinDays === undefined && !NEGATING.test(e.form) && (e.target.kind === 'evidence' || e.target.kind === 'feature');

const cache = new WeakMap<ConceptIndex, Map<string, FormVectors>>();

export function formVectorsFor(index: ConceptIndex, embedder: PhraseEmbedder): FormVectors {
  const perIndex = cache.get(index) ?? new Map<string, FormVectors>();
  cache.set(index, perIndex);
  const hit = perIndex.get(embedder.id);
  if (hit) return hit;
  const entries = index.entries.filter((e) => standsAlone(e) && e.raw === null);
  const built = buildFormVectors(embedder.id, entries, embedder.embedVectors(entries.map((e) => e.form)));
  perIndex.set(embedder.id, built);
  simdFor(built); // the rows copied into the SIMD module now (start-up: prepareConcepts), not in a first request
  return built;
}

/** The matrix of the entries' vectors (one per entry, in order) and each row's tail norms. */
export function buildFormVectors(embedderId: string, entries: FormEntry[], vectors: readonly Float32Array[]): FormVectors {
  const dim = vectors[0]?.length ?? 0;
  const matrix = new Float32Array(entries.length * dim);
  vectors.forEach((v, i) => matrix.set(v, i * dim));
  const checkpoints = CHECKPOINTS.filter((c) => c < dim);
  let maxNorm = 0;
  for (let i = 0; i < entries.length; i++) maxNorm = Math.max(maxNorm, tailNorm(matrix, i * dim, (i + 1) * dim));
  return { embedderId, dim, matrix, entries, tails: rowTails(matrix, dim, checkpoints), checkpoints, maxNorm };
}

/**
 * Dimensions after which nearestForm checks whether a form can still reach the bar. WordLlama is
 * a Matryoshka embedding (the leading dimensions carry most of a phrase), so on real notes'
 * phrases against the 4,824 forms of a codes + notes KG, 75% of forms are still possible after 64
 * of 256 dimensions, 9% after 96, 0.3% after 128.
 */
const CHECKPOINTS = [64, 96, 128, 160, 192, 224];

function rowTails(matrix: Float32Array, dim: number, checkpoints: readonly number[]): Float64Array {
  const n = dim === 0 ? 0 : matrix.length / dim;
  const out = new Float64Array(n * checkpoints.length);
  for (let i = 0; i < n; i++) checkpoints.forEach((c, k) => (out[i * checkpoints.length + k] = tailNorm(matrix, i * dim + c, (i + 1) * dim)));
  return out;
}

function tailNorm(v: ArrayLike<number>, from: number, to: number): number {
  let s = 0;
  for (let j = from; j < to; j++) s += v[j]! * v[j]!;
  return Math.sqrt(s);
}

/**
 * Slack on the Cauchy-Schwarz bound for rounding: the sums are of a few hundred exact float32
 * products of unit vectors in float64, each rounded below 1e-13 however they are ordered; a form is
 * skipped only when it misses the bar by more.
 */
const BOUND_SLACK = 1e-9;

/**
 * The closest concept form to a phrase, when its cosine reaches `threshold`: the first form of the
 * highest cosine, as a scan of every form gives it (nearestFormByScan; a unit test compares them).
 * With WebAssembly SIMD, every form's cosine is first summed in float32 four lanes at a time
 * (simd-dots.ts, 15 times faster than a scalar scan); only forms whose sum comes within that sum's
 * rounding bound of the bar (the threshold, or the best cosine so far) are then scored in the
 * plain scan's order, so scores and ties are the scan's. Without SIMD, nearestFormBounded.
 */
export function nearestForm(forms: FormVectors, vector: Float32Array, threshold: number): Nearest {
  const simd = simdFor(forms);
  return simd ? nearestBySums(forms, vector, threshold, simd.dots(vector), 1, 0) : nearestFormBounded(forms, vector, threshold);
}

/** nearestForm for many phrases: four at a time through the SIMD module (each form read once for the four), else one by one. */
export function nearestFormsOf(forms: FormVectors, vectors: readonly Float32Array[], thresholds: readonly number[]): Nearest[] {
  const simd = simdFor(forms);
  const out: Nearest[] = [];
  let i = 0;
  for (; simd && i + 3 < vectors.length; i += 4) {
    const four = [vectors[i]!, vectors[i + 1]!, vectors[i + 2]!, vectors[i + 3]!] as const;
    const sums = simd.dots4(four);
    four.forEach((v, k) => out.push(nearestBySums(forms, v, thresholds[i + k]!, sums, 4, k)));
  }
  for (; i < vectors.length; i++) out.push(nearestForm(forms, vectors[i]!, thresholds[i]!));
  return out;
}

/** The scan's answer from float32 sums (form i's at sums[stride·i + at]): only forms within their rounding bound of the bar are scored exactly. */
function nearestBySums(forms: FormVectors, vector: Float32Array, threshold: number, sums: Float32Array, stride: number, at0: number): Nearest {
  const { dim, matrix, entries } = forms;
  // γ_dim·|vector|·|form| (Higham): how far a float32 sum of `dim` products can be from the exact dot product.
  const gamma = (dim * SIMD_ROUNDING) / (1 - dim * SIMD_ROUNDING);
  const slack = gamma * tailNorm(vector, 0, dim) * forms.maxNorm + BOUND_SLACK;
  let best = -Infinity;
  let at = -1;
  for (let i = 0; i < entries.length; i++) {
    if (sums[stride * i + at0]! + slack < (best > threshold ? best : threshold)) continue;
    let s = 0;
    const o = i * dim;
    for (let j = 0; j < dim; j++) s += matrix[o + j]! * vector[j]!;
    if (s > best) {
      best = s;
      at = i;
    }
  }
  return at >= 0 && best >= threshold ? { entry: entries[at]!, score: best } : null;
}

/** Each form set's rows in a SIMD module's memory (built at its first phrase); null where SIMD is unavailable. */
const simdCache = new WeakMap<FormVectors, SimdDots | null>();
function simdFor(forms: FormVectors): SimdDots | null {
  let s = simdCache.get(forms);
  if (s === undefined) {
    s = forms.entries.length === 0 ? null : simdDots(forms.matrix, forms.dim);
    simdCache.set(forms, s);
  }
  return s;
}

/**
 * nearestForm without SIMD: a form is given up early when its dot
 * product so far plus the most the rest can add (|rest of form| · |rest of phrase|) stays below
 * the bar (the threshold, or the best cosine found so far): it can neither reach the threshold
 * nor beat the best. Partial sums for that test use four running sums (fast, rounded
 * differently: BOUND_SLACK covers it); a form that passes every test is then summed in the plain
 * scan's order, so scores and ties are the plain scan's (a unit test compares them).
 */
function nearestFormBounded(forms: FormVectors, vector: Float32Array, threshold: number): Nearest {
  const { dim, matrix, tails, checkpoints } = forms;
  const cps = checkpoints.length;
  const rest = checkpoints.map((c) => tailNorm(vector, c, dim));
  let best = -Infinity;
  let at = -1;
  for (let i = 0; i < forms.entries.length; i++) {
    const o = i * dim;
    const bar = (best > threshold ? best : threshold) - BOUND_SLACK;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let j = 0;
    let k = 0;
    for (; k < cps; k++) {
      const stop = checkpoints[k]!;
      for (; j + 3 < stop; j += 4) {
        s0 += matrix[o + j]! * vector[j]!;
        s1 += matrix[o + j + 1]! * vector[j + 1]!;
        s2 += matrix[o + j + 2]! * vector[j + 2]!;
        s3 += matrix[o + j + 3]! * vector[j + 3]!;
      }
      for (; j < stop; j++) s0 += matrix[o + j]! * vector[j]!;
      if (s0 + s1 + s2 + s3 + tails[i * cps + k]! * rest[k]! < bar) break;
    }
    if (k < cps) continue;
    let s = 0;
    for (j = 0; j < dim; j++) s += matrix[o + j]! * vector[j]!;
    if (s > best) {
      best = s;
      at = i;
    }
  }
  return at >= 0 && best >= threshold ? { entry: forms.entries[at]!, score: best } : null;
}

type Nearest = { entry: FormEntry; score: number } | null;
/** Phrases remembered per form set: notes repeat their templated phrases across patients, and a request its own. */
export const NEAREST_CACHE_ENTRIES = 50_000;
const nearestCache = new WeakMap<FormVectors, Map<string, Nearest>>();

/**
 * nearestForm for many phrases, each at its own threshold: each distinct (phrase, threshold)
 * embedded and scanned once, and remembered for the form set (bounded: emptied when full).
 * The embedder is deterministic, so a remembered answer is the one a new scan would give.
 */
export function nearestForms(forms: FormVectors, embedder: PhraseEmbedder, asked: readonly { text: string; threshold: number }[]): Nearest[] {
  const cache = nearestCache.get(forms) ?? new Map<string, Nearest>();
  nearestCache.set(forms, cache);
  const key = (a: { text: string; threshold: number }) => `${a.threshold}\u0000${a.text}`;
  const missing = [...new Map(asked.filter((a) => !cache.has(key(a))).map((a) => [key(a), a] as const)).values()];
  if (missing.length > 0) {
    if (cache.size + missing.length > NEAREST_CACHE_ENTRIES) cache.clear();
    const vectors = embedder.embedVectors(missing.map((a) => a.text));
    const found = nearestFormsOf(forms, vectors, missing.map((a) => a.threshold));
    missing.forEach((a, i) => cache.set(key(a), found[i]!));
  }
  return asked.map((a) => cache.get(key(a)) ?? null);
}

/** The plain scan nearestForm must equal (its unit test; also what it was before the bound). */
export function nearestFormByScan(forms: Pick<FormVectors, 'dim' | 'matrix' | 'entries'>, vector: Float32Array, threshold: number): { entry: FormEntry; score: number } | null {
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

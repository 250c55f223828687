/**
 * Cheap surface features added to the sentence embedding. They carry what a bag-of-n-grams
 * vector blurs: how much a sentence says (length), whether it holds a measurement (digits),
 * whether it denies something (negation), and key-value form ("Pain location: lower chest").
 * All lie in [0, 1] so they need no scaling beside an L2-normalised embedding.
 */
export const EXTRA_FEATURES = ['chars', 'words', 'hasDigit', 'hasNegation', 'keyValue'] as const;
export const N_EXTRA = EXTRA_FEATURES.length;

const NEGATION = /\b(?:no|not|denies|denied|deny|without|negative|absent|never|none|nil)\b/i;

/** Writes the extra features of `text` into `out` at `offset` (no allocation on the hot path). */
export function writeExtraFeatures(text: string, out: Float32Array, offset: number): void {
  let words = 0;
  let inWord = false;
  let digit = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isSpace = c === 32 || c === 9;
    if (!isSpace && !inWord) words++;
    inWord = !isSpace;
    if (c >= 48 && c <= 57) digit = 1;
  }
  out[offset] = Math.min(text.length, 300) / 300;
  out[offset + 1] = Math.min(words, 40) / 40;
  out[offset + 2] = digit;
  out[offset + 3] = NEGATION.test(text) ? 1 : 0;
  out[offset + 4] = text.includes(':') ? 1 : 0;
}

/** Embedding followed by the extra features. */
export function featurize(vector: Float32Array, text: string): Float32Array {
  const x = new Float32Array(vector.length + N_EXTRA);
  x.set(vector);
  writeExtraFeatures(text, x, vector.length);
  return x;
}

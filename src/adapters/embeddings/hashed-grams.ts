/**
 * The hashed n-gram vector of HashedEmbedder (id `hashed-ngram-v1`). The reference
 * definition: lower-case, NFKD, strip combining marks, split on [^a-z0-9.]+, trim dots, drop
 * stopwords; per word i, FNV-1a-32 of `w:${word}` (weight 1), `b:${word}_${next}` (0.7) and of
 * every `c:${trigram}` of ` ${word} ` (charWeight), each added with the hash's sign bit into
 * bucket hash % dim of a Float32Array, in that order; then L2-normalised.
 * Here the grams are never built as strings: tokens are char-code ranges of one scratch
 * buffer and each gram's FNV state continues from its prefix's, so a record text costs no
 * allocation but its vector (test/unit/hashed-embedder.test.ts checks bit-identity with the
 * string version). Tokens only ever hold [a-z0-9.], so pure-ASCII texts are tokenised in one
 * pass; others go through the Unicode-aware reference tokenizer first.
 */
const STOPWORDS = new Set(['a', 'an', 'the', 'of', 'or', 'and', 'to', 'in', 'on', 'at', 'is', 'are', 'do', 'does', 'you', 'your', 'have', 'has', 'with', 'for', 'that', 'this', 'it', 'be', 'any', 'as', 'by', 'from']);

/** Reference tokenizer (any Unicode input). */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9.]+/)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter((t) => t.length > 0 && !STOPWORDS.has(t));
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const step = (h: number, c: number) => Math.imul(h ^ c, FNV_PRIME);
const prefixState = (p: string) => [...p].reduce((h, ch) => step(h, ch.charCodeAt(0)), FNV_OFFSET);
const W = prefixState('w:');
const B = prefixState('b:');
const C = prefixState('c:');
const UNDERSCORE = 95;
const SPACE = 32;

/** Stopwords are at most 4 ASCII chars: packed 7 bits per char, they are small integers. */
const pack = (codes: ArrayLike<number>, s: number, e: number) => {
  let k = 0;
  for (let i = s; i < e; i++) k = (k << 7) | codes[i]!;
  return k;
};
const STOP_KEYS = new Set([...STOPWORDS].map((w) => pack([...w].map((c) => c.charCodeAt(0)), 0, w.length)));

// Scratch: token chars and [start, end) ranges; grown on demand, reused across calls.
let codes = new Uint8Array(4096);
let bounds = new Int32Array(1024);

function ensure(chars: number): void {
  if (codes.length < chars) codes = new Uint8Array(chars * 2);
  if (bounds.length < chars + 2) bounds = new Int32Array(chars + 2);
}

function keep(s: number, e: number, n: number): number {
  while (s < e && codes[s] === 46) s++;
  while (e > s && codes[e - 1] === 46) e--;
  if (s === e || (e - s <= 4 && STOP_KEYS.has(pack(codes, s, e)))) return n;
  bounds[2 * n] = s;
  bounds[2 * n + 1] = e;
  return n + 1;
}

/** Tokens of `text` into the scratch buffers; returns their count. */
function tokenizeInto(text: string): number {
  ensure(text.length + 1);
  let n = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return tokenizeSlow(text);
    if (c >= 65 && c <= 90) c += 32;
    codes[i] = c;
    const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46;
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      n = keep(start, i, n);
      start = -1;
    }
  }
  return start >= 0 ? keep(start, text.length, n) : n;
}

function tokenizeSlow(text: string): number {
  const words = tokenize(text);
  let len = 0;
  for (const w of words) len += w.length;
  ensure(len + words.length);
  let at = 0;
  words.forEach((w, n) => {
    bounds[2 * n] = at;
    for (let i = 0; i < w.length; i++) codes[at++] = w.charCodeAt(i);
    bounds[2 * n + 1] = at;
  });
  return words.length;
}

/**
 * The tokens of `text` as tokenize() gives them, without strings: token t is
 * codes[bounds[2t] .. bounds[2t+1]) (char codes, all in [a-z0-9.]). The arrays are this
 * module's scratch, valid until the next call (the lexical index's term hashing reads them).
 */
export function tokenSpans(text: string): { n: number; codes: Uint8Array; bounds: Int32Array } {
  const n = tokenizeInto(text);
  return { n, codes, bounds };
}

export function hashedVector(text: string, dim: number, charWeight: number): Float32Array {
  const v = new Float32Array(dim);
  // hash % dim on the unsigned hash; for a power of two that is its low bits (no float modulo).
  const mask = (dim & (dim - 1)) === 0 ? dim - 1 : -1;
  const at = (h: number) => (mask >= 0 ? h & mask : (h >>> 0) % dim);
  const n = tokenizeInto(text);
  for (let t = 0; t < n; t++) {
    const s = bounds[2 * t]!;
    const e = bounds[2 * t + 1]!;
    let h = W;
    for (let i = s; i < e; i++) h = step(h, codes[i]!);
    v[at(h)]! += h < 0 ? -1 : 1;
    if (t + 1 < n) {
      h = B;
      for (let i = s; i < e; i++) h = step(h, codes[i]!);
      h = step(h, UNDERSCORE);
      for (let i = bounds[2 * t + 2]!, e2 = bounds[2 * t + 3]!; i < e2; i++) h = step(h, codes[i]!);
      v[at(h)]! += h < 0 ? -0.7 : 0.7;
    }
    // Trigrams of ` word `: padded position p is a space at both ends, else codes[s + p - 1].
    const last = e - s + 1;
    for (let p = 0; p + 2 <= last; p++) {
      h = step(C, p === 0 ? SPACE : codes[s + p - 1]!);
      h = step(h, codes[s + p]!);
      h = step(h, p + 2 === last ? SPACE : codes[s + p + 1]!);
      v[at(h)]! += h < 0 ? -charWeight : charWeight;
    }
  }
  let norm = 0;
  for (let i = 0; i < dim; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dim; i++) v[i]! /= norm;
  return v;
}

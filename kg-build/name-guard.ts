import { normalizeName } from './text.js';

/**
 * Token-set guard for disease-name clustering: embeddings of short names put
 * "stable angina" and "unstable angina" close together, but two names that each carry
 * a word the other lacks ("stable" vs "unstable", "acute" vs "chronic") name different
 * diseases. Such pairs get a cannot-link. Spelling variants (edit distance 1-2) and
 * acronyms ("copd" = "chronic obstructive pulmonary disease") still count as the same word.
 */
const QUALIFIERS = new Set(['possible', 'probable', 'suspected', 'presumed', 'unspecified', 'nos']);
const NEGATING_PREFIXES = ['un', 'non', 'in', 'a'];

export function nameTokens(raw: string): string[] {
  return normalizeName(raw)
    .split(' ')
    .filter((t) => t.length > 0 && !QUALIFIERS.has(t));
}

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  // "unstable" is not a misspelling of "stable"
  if (NEGATING_PREFIXES.some((p) => a === p + b || b === p + a)) return false;
  const min = Math.min(a.length, b.length);
  const allowed = min >= 9 ? 2 : min >= 5 ? 1 : 0;
  return allowed > 0 && levenshtein(a, b, allowed) <= allowed;
}

/** Marks tokens of `a` matched by a word or an acronym of `b`, and the `b` tokens an acronym covers. */
function match(a: string[], b: string[], aHit: boolean[], bHit: boolean[]): void {
  a.forEach((t, i) => {
    const j = b.findIndex((u) => sameWord(t, u));
    if (j >= 0) {
      aHit[i] = true;
      bHit[j] = true;
      return;
    }
    if (t.length < 2) return;
    for (let s = 0; s + t.length <= b.length; s++) {
      const run = b.slice(s, s + t.length);
      if (run.map((u) => u[0]).join('') === t) {
        aHit[i] = true;
        for (let k = s; k < s + t.length; k++) bHit[k] = true;
        return;
      }
    }
  });
}

/** True when each name has a word the other lacks: the two must not be clustered together. */
export function namesConflict(x: string, y: string): boolean {
  const a = nameTokens(x);
  const b = nameTokens(y);
  const aHit = a.map(() => false);
  const bHit = b.map(() => false);
  match(a, b, aHit, bHit);
  match(b, a, bHit, aHit);
  return aHit.includes(false) && bHit.includes(false);
}

import { slashedWords } from '../slashed-words.js';

/**
 * Tokens for dictionary matching: offsets into the original text, the original casing (for
 * case-sensitive abbreviations), a lowercase form and a light stem, so "coughing" meets
 * "cough" and "wheezes" meets "wheeze". Text and lexicon forms go through the same function,
 * so the stemmer only has to be consistent, not linguistically right.
 */
export interface Token {
  raw: string;
  norm: string;
  stem: string;
  start: number;
  end: number;
}

// Words with inner slashes stay one token ("n/v", "h/o") unless they are a list of words
// ("pain/swelling": slashed-words.ts); apostrophes join ("can't" → "cant").
const WORD = /[A-Za-z0-9]+(?:['’][A-Za-z]+)?(?:\/[A-Za-z0-9]+)*/g;

/** Words that carry no concept: dropped on both sides, so "pain in my chest" ≈ "chest pain". */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'my', 'his', 'her', 'their', 'its', 'our', 'your', 'of', 'in', 'on', 'at', 'is', 'are', 'was', 'were',
  'be', 'been', 'am', 'i', 'im', 'me', 'he', 'she', 'it', 'this', 'that', 'some', 'very', 'really', 'quite', 'bit', 'little',
  'also', 'just', 'have', 'has', 'had', 'having', 'ive', 'get', 'getting', 'got', 'kind', 'sort', 'pt', 'patient', 'and', 'or',
  'for', 'from', 'by', 'as', 'so', 'lot', 'feel', 'feels', 'feeling', 'felt', 'there', 'any', 'c/o', 'complains', 'reports',
]);

export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 6 && w.endsWith('in') && !/[aeiou]in$/.test(w)) w = w.slice(0, -2); // "coughin'", "swallowin'"
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  // "wheezes" → "wheeze" → "wheez" = "wheeze"; a 4-letter word keeps its e ("hives" → "hive", not "hiv" = HIV).
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** "10kg", "5lbs", "2cm": a quantity written against its unit is two words, as "10 kg" is ("lost 10kg" is "lost kg"). */
const NUMBER_UNIT = /^(\d+(?:\.\d+)?)(kgs?|kilos?|lbs?|pounds?|st|stones?|cm|mm|mls?|mg|mcg|oz)$/i;

function numberAndUnit(word: string, at: number): { raw: string; at: number }[] {
  // Most words start with a letter: no regex for them (tokenize reads every note of a build).
  const first = word.charCodeAt(0);
  const m = first >= 48 && first <= 57 ? NUMBER_UNIT.exec(word) : null;
  return m ? [{ raw: m[1]!, at }, { raw: m[2]!, at: at + m[1]!.length }] : [{ raw: word, at }];
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    // "pain/swelling" is two words; "N/V" and "h/o" stay one (slashed-words.ts).
    // Only a word with a slash can be a list (slashedWords' pattern needs one): no regex for the others.
    for (const { word, at: wordAt } of (m[0].includes('/') ? slashedWords(m[0]) : null) ?? [{ word: m[0], at: 0 }]) {
      for (const { raw, at } of numberAndUnit(word, wordAt)) {
        const lower = raw.toLowerCase();
        const norm = lower.includes("'") || lower.includes('’') ? lower.replace(/['’]/g, '') : lower;
        out.push({ raw, norm, stem: stem(norm), start: m.index + at, end: m.index + at + raw.length });
      }
    }
  }
  return out;
}

/** Concept-bearing tokens only (stopwords out), with their positions in the full token list. */
export function contentTokens(tokens: readonly Token[]): { token: Token; at: number }[] {
  return tokens.map((token, at) => ({ token, at })).filter((t) => !STOPWORDS.has(t.token.norm));
}

/** The stems of a lexicon form, stopwords out (all of them kept when the form is only stopwords). */
export function formStems(form: string): string[] {
  const toks = tokenize(form);
  const content = toks.filter((t) => !STOPWORDS.has(t.norm));
  return (content.length > 0 ? content : toks).map((t) => t.stem);
}

/** Damerau-Levenshtein distance with an early exit once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  // Three rows of the table, reused across calls (the typo matcher asks thousands per note).
  if (rows[0]!.length < n + 1) rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1)));
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}
let rows: Int32Array[] = [0, 1, 2].map(() => new Int32Array(64));

/** Typos tolerated by word length: none under 5 letters (too many real words one edit apart). */
export function typoBudget(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
}

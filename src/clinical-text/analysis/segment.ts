import type { Span } from './types.js';
import { slashedWords } from '../slashed-words.js';

/**
 * Sentences and tokens. Offsets always refer to the original text: masking (demographics,
 * values) replaces characters by spaces, never removes them.
 */
export interface Token {
  start: number;
  end: number;
  raw: string;
  /** Lower case, typographic apostrophe folded; "?q" for a leading "?pneumonia", "-neg" / "+pos" for "-cough" / "+cough". */
  norm: string;
}

/** A token with a letter or digit (not punctuation). */
export const isWord = (t: Token): boolean => /[a-z0-9]/i.test(t.raw);

/** A list item's mark at the start of a line ("- ", "2) ", "b. "); decompose.ts skips it too. */
export const LIST_MARK = /^\s*(?:[-*•·]|\d{1,2}[.)]|[a-z][.)])\s+/i;
/** A dot after these does not end a sentence ("Dr. Lee", "45 y.o. F", "pt. denies"). */
const ABBREVIATION = /(?:^|[^A-Za-z])(?:dr|mr|mrs|ms|vs|e\.g|i\.e|approx|y\.o|pt|hx|sx|dx|tx|h\.o|c\.o|etc|st)$/i;

/** Sentence spans: lines, list items, sentence ends (not "38.5", not "Dr."), semicolons. */
export function splitSentences(text: string): Span[] {
  const out: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /[\s.!;]/.test(text[end - 1]!)) end--;
    if (end > start) out.push({ start, end });
  };
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const mark = LIST_MARK.exec(line);
    let start = lineStart + (mark ? mark[0].length : 0);
    const lineEnd = lineStart + line.length;
    for (let i = start; i < lineEnd; i++) {
      const c = text[i]!;
      const next = i + 1 < lineEnd ? text[i + 1]! : ' ';
      const breaks =
        c === ';' ||
        (c === '.' && /\s/.test(next) && !ABBREVIATION.test(text.slice(Math.max(start, i - 6), i))) ||
        ((c === '!' || c === '?') && /\s/.test(next) && i > start && /[^\s?]/.test(text[i - 1]!));
      if (!breaks) continue;
      push(start, c === '?' ? i + 1 : i);
      start = i + 1;
    }
    push(start, lineEnd);
    lineStart = lineEnd + 1;
  }
  return out;
}

const TOKEN = /\bw\/(?![A-Za-z0-9])|\?(?=[A-Za-z])|[-+](?=[A-Za-z])|[A-Za-z0-9]+(?:['’][A-Za-z]+)?(?:[/.\-&][A-Za-z0-9]+(?:['’][A-Za-z]+)?)*|[,:+&?/()-]/g;

/**
 * "?PTX": a query mark attached to an abbreviation questions that one word (atomsOf ends the atom
 * after it, and the scope is the atom's own); on written words ("?septic arthritis") it keeps its clause.
 */
export const queriesAbbreviation = (tokens: readonly Token[], i: number): boolean => tokens[i]?.norm === '?q' && /^[A-Z]{2,5}s?$/.test(tokens[i + 1]?.raw ?? '');

/** A slash-joined list ("pain/swelling") as its words with the slashes as tokens between them (slashed-words.ts). */
function slashParts(raw: string, at: number): { raw: string; at: number }[] {
  const words = slashedWords(raw);
  if (!words) return [{ raw, at }];
  return words.flatMap((w, i) => [...(i > 0 ? [{ raw: '/', at: at + w.at - 1 }] : []), { raw: w.word, at: at + w.at }]);
}

/** Word and punctuation tokens of text[span]. */
export function tokenize(text: string, span: Span): Token[] {
  const out: Token[] = [];
  const s = text.slice(span.start, span.end);
  for (const whole of s.matchAll(TOKEN)) {
    for (const { raw, at } of slashParts(whole[0], whole.index)) {
      const start = span.start + at;
      let norm = raw.toLowerCase().replace(/’/g, "'");
      const attached = /[A-Za-z]/.test(s[at + 1] ?? '') && (at === 0 || /[\s,(:;]/.test(s[at - 1]!));
      if (raw === '?' && attached) norm = '?q';
      else if (raw === '-' && attached) norm = '-neg';
      else if (raw === '+' && attached) norm = '+pos';
      out.push({ start, end: start + raw.length, raw, norm });
    }
  }
  return out;
}

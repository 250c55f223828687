/**
 * Clinical sentence segmentation: FIND splits the query into fine-grained units (sentences,
 * §3.2.1) before classifying each one. Clinical notes break naive splitters: "b.i.d.",
 * "T 38.2 C", "120/80", bullet lists, semicolon-separated findings, headings. Rules:
 *  - a newline always ends a unit (record renderings put one finding per line);
 *  - leading bullets ("-", "*", "•") and list numbers ("1.", "2)", "(3)", "a)") are stripped;
 *  - an inline enumeration "1. x 2. y" (consecutive numbers from 1) is split at each number;
 *  - ";" ends a unit;
 *  - "!" / "?" followed by space or end end a unit, unless a lowercase word follows ("Cough? yes");
 *  - "." ends a unit only when followed by space or end (decimals never split), and the
 *    word before it is not an abbreviation: titles ("Dr.", "vs.", "e.g.", "approx.") never
 *    end a sentence; other abbreviations ("b.i.d.", "etc.", "temp.") only before a capital;
 *  - an ellipsis ends a unit unless a lowercase word follows;
 *  - heading-only lines ("HPI:") and units with no letter or digit are dropped.
 */

/** Abbreviations after which a period never ends a sentence. */
const TITLES = new Set(['dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'vs', 'v', 'e.g', 'eg', 'i.e', 'ie', 'cf', 'approx', 'appr', 'fig', 'c.f']);

/** Abbreviations that end a sentence only when a capital letter follows. */
const ABBREVIATIONS = new Set([
  'etc', 'no', 'nos', 'ca', 'bid', 'tid', 'qid', 'qd', 'qh', 'qhs', 'prn', 'po', 'pr', 'iv', 'im', 'sc', 'hs', 'stat',
  'temp', 'hr', 'hrs', 'wt', 'ht', 'sat', 'resp', 'max', 'min', 'avg', 'hx', 'dx', 'tx', 'rx', 'sx', 'fx',
  'pt', 'pts', 'yo', 'yr', 'yrs', 'wk', 'wks', 'mo', 'mos', 'sec', 'inc', 'dept', 'ref', 'abd', 'ext',
]);

/** "b.i.d", "q.d", "p.r.n", "y.o": letters joined by periods. */
const DOTTED = /^(?:[a-z]\.)+[a-z]$/i;
const BULLET = /^\s*(?:[-*•·▪◦–—>]+|\(?\d{1,2}[.)](?!\d)|\(\d{1,2}\)|\(?[a-z]\))\s+/i;
const HEADING = /^[A-Za-z][A-Za-z /&()-]{0,40}:$/;
const HAS_CONTENT = /[\p{L}\p{N}]/u;

export function segmentSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    const line = rawLine.replace(BULLET, '').trim();
    if (line === '' || HEADING.test(line)) continue;
    for (const item of splitInlineEnumeration(line)) {
      for (const clause of item.split(';')) {
        for (const s of splitOnTerminators(clause)) {
          const t = s.trim();
          if (HAS_CONTENT.test(t)) out.push(t);
        }
      }
    }
  }
  return out;
}

/** "Problems: 1. fever 2. cough" → ["Problems:", "fever", "cough"]; needs numbers 1, 2, ... in order. */
function splitInlineEnumeration(line: string): string[] {
  const marker = /(^|\s)\(?(\d{1,2})[.)](?=\s+\S)/g;
  const cuts: { at: number; end: number }[] = [];
  let expected = 1;
  for (let m = marker.exec(line); m !== null; m = marker.exec(line)) {
    if (Number(m[2]) !== expected) continue;
    cuts.push({ at: m.index + m[1]!.length, end: m.index + m[0].length });
    expected++;
  }
  if (cuts.length < 2) return [line];
  const parts = [line.slice(0, cuts[0]!.at)];
  cuts.forEach((c, i) => parts.push(line.slice(c.end, cuts[i + 1]?.at ?? line.length)));
  return parts.map((p) => p.trim()).filter((p) => p !== '' && !HEADING.test(p));
}

function splitOnTerminators(clause: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < clause.length) {
    const ch = clause[i]!;
    if (ch !== '.' && ch !== '!' && ch !== '?' && ch !== '…') {
      i++;
      continue;
    }
    // Take the whole run of terminators plus closing quotes/brackets ("...", '?!', '.)').
    let end = i + 1;
    while (end < clause.length && /[.!?…"'”’)\]]/.test(clause[end]!)) end++;
    const run = clause.slice(i, end);
    const next = clause.slice(end);
    if (next !== '' && !/^\s/.test(next)) {
      i = end; // "37.5", "e.g.,", "www.x" — no space after the period: never a boundary
      continue;
    }
    const following = next.trimStart();
    if (following === '' || isBoundary(run, clause.slice(start, i), following)) {
      parts.push(clause.slice(start, end));
      start = end;
    }
    i = end;
  }
  parts.push(clause.slice(start));
  return parts;
}

function isBoundary(run: string, before: string, following: string): boolean {
  const capitalNext = /^[\p{Lu}]/u.test(following);
  // "Cough? yes" (a question with its answer, as record renderings put it) is one unit.
  if (/[!?]/.test(run)) return !/^\p{Ll}/u.test(following);
  // An ellipsis trails off inside a sentence unless something other than a lowercase word follows.
  if (run.startsWith('..') || run.startsWith('…')) return !/^\p{Ll}/u.test(following);
  const word = (before.match(/[^\s(\[]+$/)?.[0] ?? '').toLowerCase().replace(/^[^a-z0-9]+/, '');
  if (TITLES.has(word)) return false;
  if (ABBREVIATIONS.has(word) || DOTTED.test(word)) return capitalNext;
  return true;
}

import type { DurationUnit, ExtractedValues, Span } from './types.js';

/**
 * Values written inside findings: 0-10 intensity, temperature, duration. Found on the raw
 * sentence before tokenising so "39.5C", "7/10" and "x3d" are read whole; their spans are
 * then masked so the value words do not end up in the finding text.
 */
export type ValueHit =
  | { kind: 'intensity'; span: Span; intensity: number }
  | { kind: 'temperature'; span: Span; temperatureC: number; context: string | null }
  | { kind: 'duration'; span: Span; duration: NonNullable<ExtractedValues['duration']>; historical: boolean };

const NUM_WORDS: Readonly<Record<string, number>> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  few: 3, 'a few': 3, couple: 2, 'a couple': 2, 'couple of': 2, 'a couple of': 2,
};
const NUM = String.raw`(?<num>\d+(?:\.\d+)?|(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?few|(?:a\s+)?couple(?:\s+of)?)\b)`;
const UNIT = String.raw`(?<unit>min|mins|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mos|months?|y|yrs?|years?)`;
const HEDGE = String.raw`(?:about|around|almost|nearly|over|like|approximately|approx\.?|roughly|~)\s*`;

const DURATIONS: { re: RegExp; ago?: boolean }[] = [
  // "x3d", "x 3 days": clinician shorthand, digits only.
  { re: new RegExp(String.raw`\bx\s?(?<num>\d+(?:\.\d+)?)\s?${UNIT}\b`, 'gi') },
  // "for 2 wks", "for the past 3 days", "over the last week", "past 2 weeks"
  { re: new RegExp(String.raw`\b(?:(?:for|over|in|during)\s+(?:${HEDGE})?(?:the\s+)?(?:(?:past|last|previous)\s+)?|(?:the\s+)?(?:past|previous)\s+)(?:${HEDGE})?(?:${NUM}\s*-?\s*)?${UNIT}\b`, 'gi') },
  // "2 days ago", "3-day history", "3 day hx"
  { re: new RegExp(String.raw`\b${NUM}\s*-?\s*${UNIT}\s+ago\b`, 'gi'), ago: true },
  { re: new RegExp(String.raw`\b(?<num>\d+(?:\.\d+)?)\s*-?\s*${UNIT}\s+(?:of\s+)?(?:history|hx|duration)\b`, 'gi') },
  // bare "fever 3 days" (digits only)
  { re: new RegExp(String.raw`\b(?:\d+(?:\.\d+)?\s*(?:-|–|to)\s*)?(?<num>\d+(?:\.\d+)?)\s*-?\s*${UNIT}\b(?!\s*(?:old|pregnant|postpartum|post))`, 'gi') },
];
const SINCE = /\b(?:since|started|began|starting|beginning)\s+(?<when>yesterday|last\s+night|last\s+week|last\s+month|last\s+year)\b/gi;
const SINCE_VALUE: Readonly<Record<string, [number, DurationUnit]>> = {
  yesterday: [1, 'day'], 'last night': [1, 'day'], 'last week': [1, 'week'], 'last month': [1, 'month'], 'last year': [1, 'year'],
};

const INTENSITY = /\b(?<num>\d{1,2}(?:\.\d)?)\s*(?:\/|out\s+of)\s*10\b/gi;
const TEMPERATURE =
  /(?:\b(?<ctx>temp(?:erature)?s?|tmax|t|febrile|fevers?|feverish|pyrexi(?:a|al)|spiked|spiking)\b\s*[:=]?\s*(?:(?:of|to|was|is|at|up\s+to|as\s+high\s+as|around|about|reaching|spiking\s+to|~)\s*)*)?(?<num>\d{2,3}(?:[.,]\d{1,2})?)(?:\s*(?:-|–|to)\s*(?<num2>\d{2,3}(?:[.,]\d{1,2})?))?\s*(?<deg>°|º|deg(?:rees?)?\.?)?\s*(?<unit>[CF](?![A-Za-z]))?/gi;

const DAYS: Readonly<Record<DurationUnit, number>> = { hour: 1 / 24, day: 1, week: 7, month: 30, year: 365 };

function unitOf(raw: string): DurationUnit {
  const u = raw.toLowerCase();
  if (/^min/.test(u)) return 'hour';
  if (/^h/.test(u)) return 'hour';
  if (/^d/.test(u)) return 'day';
  if (/^w/.test(u)) return 'week';
  if (/^mo/.test(u)) return 'month';
  return 'year';
}

function numberOf(raw: string): number | null {
  const w = raw.toLowerCase().replace(/\s+/g, ' ');
  const n = NUM_WORDS[w] ?? Number(w);
  return Number.isFinite(n) ? n : null;
}

function duration(value: number, unit: DurationUnit): NonNullable<ExtractedValues['duration']> {
  return { value, unit, days: Math.round(value * DAYS[unit] * 1000) / 1000 };
}

function celsius(num: string, unit: string | undefined): number | null {
  const n = Number(num.replace(',', '.'));
  const f = unit ? unit.toUpperCase() === 'F' : n >= 86;
  const c = f ? ((n - 32) * 5) / 9 : n;
  if (f && (n < 86 || n > 113)) return null;
  if (!f && (c < 30 || c > 45)) return null;
  return Math.round(c * 10) / 10;
}

/** Every value in text[from, to), in text order, no two overlapping. */
export function findValues(text: string, from: number, to: number): ValueHit[] {
  const s = text.slice(from, to);
  const hits: ValueHit[] = [];
  const free = (a: number, b: number) => hits.every((h) => b <= h.span.start || a >= h.span.end);
  for (const m of s.matchAll(INTENSITY)) {
    const v = Number(m.groups!.num);
    if (v <= 10) hits.push({ kind: 'intensity', span: { start: from + m.index, end: from + m.index + m[0].length }, intensity: v });
  }
  for (const m of s.matchAll(TEMPERATURE)) {
    const g = m.groups!;
    if (!g.ctx && !g.deg && !g.unit) continue;
    // A range ("temps 37.8-38.2") is read by its highest reading: that is whether there was a fever.
    const c1 = celsius(g.num!, g.unit);
    const c2 = g.num2 ? celsius(g.num2, g.unit) : null;
    const c = c1 !== null && c2 !== null ? Math.max(c1, c2) : g.num2 ? null : c1;
    const numAt = m.index + m[0].indexOf(g.num!, g.ctx ? g.ctx.length : 0);
    const end = m.index + m[0].trimEnd().length;
    if (c === null || !free(from + numAt, from + end)) continue;
    hits.push({ kind: 'temperature', span: { start: from + numAt, end: from + end }, temperatureC: c, context: g.ctx?.toLowerCase() ?? null });
  }
  for (const { re, ago } of DURATIONS) {
    for (const m of s.matchAll(re)) {
      // "for the past week" is one week; "for days" says no number.
      const implicitOne = !/s$/i.test(m.groups!.unit!) && /\b(?:past|last|previous)\b/i.test(m[0]);
      const rawNum = m.groups!.num ?? (implicitOne ? '1' : null);
      const n = rawNum === null ? null : numberOf(rawNum);
      const span = { start: from + m.index, end: from + m.index + m[0].length };
      if (n === null || !free(span.start, span.end)) continue;
      // Minutes have no unit of their own in the contract: written as (fractions of) hours.
      const d = /^min/i.test(m.groups!.unit!) ? duration(Math.round((n / 60) * 1000) / 1000, 'hour') : duration(n, unitOf(m.groups!.unit!));
      hits.push({ kind: 'duration', span, duration: d, historical: ago === true && d.days >= 365 });
    }
  }
  for (const m of s.matchAll(SINCE)) {
    const span = { start: from + m.index, end: from + m.index + m[0].length };
    const [v, u] = SINCE_VALUE[m.groups!.when!.toLowerCase().replace(/\s+/g, ' ')]!;
    if (free(span.start, span.end)) hits.push({ kind: 'duration', span, duration: duration(v, u), historical: false });
  }
  return hits.sort((a, b) => a.span.start - b.span.start);
}

/** Laterality of a token ("R", "lt", "left-sided", "bilateral"), or null. */
export function sideOfToken(raw: string): 'R' | 'L' | 'both' | null {
  if (raw === 'R' || raw === '(R)') return 'R';
  if (raw === 'L' || raw === '(L)') return 'L';
  const w = raw.toLowerCase().split('-')[0]!;
  if (w === 'right' || w === 'rt') return 'R';
  if (w === 'left' || w === 'lt') return 'L';
  if (w === 'bilateral' || w === 'bilaterally' || w === 'both' || w === 'b/l' || w === 'bilat') return 'both';
  return null;
}

import type { Demographics, Span } from './types.js';

/**
 * Age and sex from clinician shorthand ("61M", "45 y/o F", "a 67-year-old man") and lay
 * wording ("I'm 34, female", "my 6 month old son"). The matched text is masked out of the
 * findings so "62M" never becomes a present finding.
 */
export interface DemographicsScan {
  demographics: Demographics;
  /** Spans to blank before finding extraction (every demographic expression, also "sex: unknown"). */
  masks: Span[];
  /** Relative nouns that name the patient ("my 2 year old son"): not an 'other' experiencer. */
  patientNouns: string[];
}

const SEX_WORD = String.raw`(?:male|female|man|woman|boy|girl|gentleman|lady|son|daughter|baby\s+boy|baby\s+girl|M|F)`;
const TAIL = String.raw`(?:\s*,?\s*(?<sex>${SEX_WORD})\b)?`;
const UNIT = String.raw`(?<unit>years?|yrs?|y|months?|mos?|mo|weeks?|wks?|days?)`;

/** Ordered: the most specific forms first; each must carry an age. */
const AGE_PATTERNS: RegExp[] = [
  // "61M", "45F", "3yoM": the sex letter is upper case only ("3m" is three months or metres).
  // Not after a temperature word: "T 101F" is a fever.
  new RegExp(String.raw`(?<!\b(?:[Tt]|[Tt]emp|[Tt]emperature|[Tt]max|fever|febrile|to|of|at)\s{0,3}[:=]?\s{0,3})(?<![\d.,])\b(?<age>\d{1,3})\s?(?:(?:yo|y\/o|y\.o\.?)\s?)?(?<sex>[MF])\b`, 'g'),
  // "45 year old", "a 67-year-old man", "6 month old son", "45 years of age"
  new RegExp(String.raw`\b(?<age>\d{1,3}(?:\.\d)?)\s*-?\s*${UNIT}\s*-?\s*(?:old|of\s+age)\b${TAIL}`, 'gi'),
  // "45 y/o F", "45yo female", "2yo", "6 m/o"
  new RegExp(String.raw`\b(?<age>\d{1,3})\s*(?<unit>yo|y\/o|y\.o\.?|yr\/o|m\/o|mo\/o)${TAIL}`, 'gi'),
  // "age 45", "aged 45", "age: 45"
  new RegExp(String.raw`\bage[ds]?\s*[:=]?\s*(?<age>\d{1,3})\b${TAIL}`, 'gi'),
  // "I'm 34", "I am 34, female" (not "I'm 34 weeks pregnant")
  new RegExp(String.raw`\bI(?:['’]m|\s+am)\s+(?:a\s+)?(?<age>\d{1,3})(?=\s*(?:[,.;!]|$|\s+(?:and|yrs?|years?|yo|y\/o|${SEX_WORD})\b))${TAIL}`, 'gi'),
];

const SEX_PATTERNS: RegExp[] = [
  /\b(?:sex|gender)\s*[:=]?\s*(?<sex>male|female|man|woman|m|f)\b/gi,
  /\b(?<sex>male|female)\b/gi,
];

/** Lines a rendering writes when the value is missing ("age: unknown"): masked, no value. */
const UNKNOWN = /\b(?:age|sex|gender)\s*:\s*(?:unknown|n\/a|none)\b/gi;

const MALE = new Set(['male', 'man', 'boy', 'gentleman', 'son', 'm', 'baby boy']);
const RELATIVE = new Set(['son', 'daughter', 'boy', 'girl', 'baby boy', 'baby girl']);

function sexOf(word: string | undefined): 'M' | 'F' | null {
  if (!word) return null;
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  return MALE.has(w) ? 'M' : 'F';
}

function ageOf(value: string, unit: string | undefined): number | null {
  const n = Number(value);
  if (!Number.isFinite(n) || n > 120) return null;
  const u = (unit ?? 'y').toLowerCase();
  if (/^(?:m\/o|mo\/o|mo|mos|months?)$/.test(u)) return Math.round((n / 12) * 100) / 100;
  if (/^(?:weeks?|wks?)$/.test(u)) return Math.round((n / 52) * 100) / 100;
  if (/^days?$/.test(u)) return Math.round((n / 365) * 100) / 100;
  return n;
}

function overlaps(a: Span, spans: Span[]): boolean {
  return spans.some((b) => a.start < b.end && b.start < a.end);
}

export function scanDemographics(text: string): DemographicsScan {
  const masks: Span[] = [];
  const patientNouns: string[] = [];
  let age: number | null = null;
  let sex: 'M' | 'F' | null = null;
  let span: Span | null = null;
  for (const re of AGE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const s = { start: m.index, end: m.index + m[0].length };
      if (overlaps(s, masks)) continue;
      const a = ageOf(m.groups!.age!, m.groups!.unit);
      if (a === null) continue;
      masks.push(s);
      const sx = m.groups!.sex;
      if (age === null) {
        age = a;
        span = s;
      }
      if (sex === null && sx) sex = sexOf(sx);
      if (sx && RELATIVE.has(sx.toLowerCase().replace(/\s+/g, ' '))) patientNouns.push(sx.toLowerCase().split(/\s+/).pop()!);
    }
  }
  for (const re of SEX_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const s = { start: m.index, end: m.index + m[0].length };
      if (overlaps(s, masks)) continue;
      masks.push(s);
      if (sex === null) {
        sex = sexOf(m.groups!.sex);
        span ??= s;
      }
    }
  }
  for (const m of text.matchAll(UNKNOWN)) {
    const s = { start: m.index, end: m.index + m[0].length };
    if (!overlaps(s, masks)) masks.push(s);
  }
  masks.sort((a, b) => a.start - b.start);
  return { demographics: { age, sex, span }, masks, patientNouns };
}

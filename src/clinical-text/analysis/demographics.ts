import { AGE_PATTERNS, FEMALE_NOUNS, MALE_NOUNS, RELATIVES, RELATIVE_THEN_AGE } from './age-patterns.js';
import type { Demographics, Span } from './types.js';

/**
 * Age and sex from clinician shorthand ("61M", "45 y/o F", "18mo M", "a 67-year-old man")
 * and lay wording ("I'm 34, female", "my 6 month old son", "my grandma is 82", "He's 16").
 * The matched text is masked out of the findings so "62M" never becomes a present finding.
 */
export interface DemographicsScan {
  demographics: Demographics;
  /** Spans to blank before finding extraction (every demographic expression, also "sex: unknown"). */
  masks: Span[];
  /** Relatives the text is about ("my 2 year old son", "my grandma is 82"): the patient, not an other/family experiencer. */
  patientNouns: string[];
}

const SEX_PATTERNS: RegExp[] = [
  /\b(?:sex|gender)\s*[:=]?\s*(?<noun>male|female|man|woman|m|f)\b/gi,
  /\b(?<noun>male|female)\b/gi,
];

/** Lines a rendering writes when the value is missing ("age: unknown"): masked, no value. */
const UNKNOWN = /\b(?:age|sex|gender)\s*:\s*(?:unknown|n\/a|none)\b/gi;
/** "my 3 year old ... his ear": a child named by age only takes the sex of the pronouns used for it. */
const CHILD_BY_AGE = /\bmy\s+(?:little\s+)?\d{1,3}(?:\.\d)?\s*-?\s*(?:years?|yrs?|y|months?|mos?|mo|weeks?|wks?|days?)\s*-?\s*old\b|\bmy\s+(?:baby|child|kid|toddler|infant|newborn)\b/i;

export function sexOf(word: string | undefined): 'M' | 'F' | null {
  if (!word) return null;
  const w = word.toLowerCase().replace(/^baby\s+/, '');
  if (w === 'm' || w === 'he' || w === 'mr' || MALE_NOUNS.includes(w)) return 'M';
  if (w === 'f' || w === 'she' || w === 'mrs' || w === 'ms' || w === 'miss' || FEMALE_NOUNS.includes(w)) return 'F';
  return null;
}

function ageOf(value: string, unit: string | undefined): number | null {
  const n = Number(value);
  if (!Number.isFinite(n) || n > 120) return null;
  const u = (unit ?? 'y').toLowerCase();
  if (/^(?:m\/o|mo\/o|mo|mos|months?|12)$/.test(u)) return Math.round((n / 12) * 100) / 100;
  if (/^(?:weeks?|wks?|wk|52)$/.test(u)) return Math.round((n / 52) * 100) / 100;
  if (/^days?$/.test(u)) return Math.round((n / 365) * 100) / 100;
  return n;
}

const overlaps = (a: Span, spans: Span[]) => spans.some((b) => a.start < b.end && b.start < a.end);

function pronounSex(text: string): 'M' | 'F' | null {
  const he = /\b(?:he|him|his|he's)\b/i.test(text);
  const she = /\b(?:she|her|hers|she's)\b/i.test(text);
  return he === she ? null : he ? 'M' : 'F';
}

const spanOf = (m: RegExpMatchArray): Span => ({ start: m.index!, end: m.index! + m[0].length });

/** Whether the age patterns (their matches, per pattern) read an age outside what the relative-then-age ones read. */
function ownAgeOutside(own: readonly RegExpMatchArray[][], relativeMatches: readonly RegExpMatchArray[][]): boolean {
  const relative = relativeMatches.flat().map(spanOf);
  return own.some((ms) => ms.some((m) => ageOf(m.groups!.age!, m.groups!.unit) !== null && !overlaps(spanOf(m), relative)));
}

export function scanDemographics(text: string): DemographicsScan {
  const masks: Span[] = [];
  const patientNouns: string[] = [];
  let age: number | null = null;
  let sex: 'M' | 'F' | null = null;
  let span: Span | null = null;
  // Each pattern runs once over the text (a note may be 40,000 characters): the choice and the scan share its matches.
  const own = AGE_PATTERNS.map((re) => [...text.matchAll(re)]);
  const relative = RELATIVE_THEN_AGE.map((re) => [...text.matchAll(re)]);
  for (const matches of ownAgeOutside(own, relative) ? own : [...relative, ...own]) {
    for (const m of matches) {
      const s = { start: m.index, end: m.index + m[0].length };
      if (overlaps(s, masks)) continue;
      const a = ageOf(m.groups!.age!, m.groups!.unit);
      if (a === null) continue;
      masks.push(s);
      const noun = m.groups!.noun?.toLowerCase().replace(/^baby\s+/, '');
      if (age === null) {
        age = a;
        span = s;
      }
      if (sex === null) sex = sexOf(noun);
      if (noun && RELATIVES.includes(noun)) patientNouns.push(noun);
    }
  }
  for (const re of SEX_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const s = { start: m.index, end: m.index + m[0].length };
      if (overlaps(s, masks)) continue;
      masks.push(s);
      if (sex === null) {
        sex = sexOf(m.groups!.noun);
        span ??= s;
      }
    }
  }
  for (const m of text.matchAll(UNKNOWN)) {
    const s = { start: m.index, end: m.index + m[0].length };
    if (!overlaps(s, masks)) masks.push(s);
  }
  if (sex === null && CHILD_BY_AGE.test(text)) sex = pronounSex(text);
  masks.sort((a, b) => a.start - b.start);
  return { demographics: { age, sex, span }, masks, patientNouns };
}

import { atomsOf, cueIndex, segmentsOf, type Atom, type Segment } from './atoms.js';
import { findCues, type CueHit } from './cues.js';
import { scanDemographics, sexOf } from './demographics.js';
import { buildFindings } from './findings.js';
import { assignContexts } from './scope.js';
import { splitSentences, tokenize, type Token } from './segment.js';
import { vitalSigns } from './vitals.js';
import { measurementFindings } from './measurements.js';
import type { Span, TextAnalysis, TextFinding } from './types.js';
import { findValues, type ValueHit } from './values.js';

/**
 * Clinical free text -> atomic findings with NegEx/ConText assertions, values and the
 * patient's age and sex. Deterministic, no I/O, no logging: the text is patient data.
 */
export function analyzeClinicalText(text: string): TextAnalysis {
  const demo = scanDemographics(text);
  const masked = blank(text, [...demo.masks, ...vitalSigns(text)]);
  const patientNouns = new Set(demo.patientNouns);
  const findings: TextFinding[] = [];
  const sentences = splitSentences(masked).map((sentence) => ({ sentence, values: findValues(masked, sentence.start, sentence.end) }));
  // One copy of the text with every value blanked (not one per sentence: long texts stay linear).
  const plain = blank(masked, sentences.flatMap((s) => s.values.map((v) => v.span)));
  let asked: TextFinding[] = [];
  for (const { sentence, values } of sentences) {
    const said = text.slice(sentence.start, sentence.end);
    // "Fever? No." - a one-word answer settles the question before it.
    if (asked.length > 0 && answerTo(asked, said)) {
      asked = [];
      continue;
    }
    const tokens = tokenize(plain, sentence);
    const hits = findCues(tokens, patientNouns);
    const found = analyzeSentence({ text: plain, source: masked, sentence, tokens, hits, values });
    findings.push(...found);
    asked = said.endsWith('?') ? found : [];
  }
  const demographics = { ...demo.demographics };
  relativeAsPatient(text, findings, demographics);
  for (const f of findings) worstEver(f, text);
  // Measured vitals and labs, read as the abnormal finding they show (measurements.ts); in text order.
  const measured = measurementFindings(text, demographics.age, demographics.sex);
  return { findings: measured.length === 0 ? findings : [...findings, ...measured].sort((a, b) => a.span.start - b.span.start), demographics };
}

/** "never had a headache this bad", "never felt pain like this": a superlative, not a denial. */
const NEVER = /^(?:never|never had|never felt|never experienced|never been)$/i;
const SUPERLATIVE = /\s+(?:(?:this|so|that)\s+(?:bad|severe|painful|intense|strong|awful|terrible)|like (?:this|it|that)(?: before)?|before)\s*$/i;

/** "never had any heart trouble before" stays a denial ("any"); "never had any pain like this" is still a superlative. */
const ANY_BEFORE = /\bany\s+$/i;

function worstEver(f: TextFinding, text: string): void {
  if (f.assertion !== 'absent' || !f.cue || !NEVER.test(f.cue.trim())) return;
  const tail = SUPERLATIVE.exec(f.text);
  if (!tail) return;
  f.text = f.text.slice(0, tail.index);
  const before = tail[0].trim().toLowerCase() === 'before';
  if (before && ANY_BEFORE.test(text.slice(Math.max(0, f.span.start - 8), f.span.start))) return;
  f.assertion = 'present';
  f.cue = null;
  // "this bad", "like this" grade a complaint; "before" alone may also deny a history ("never had asthma before"): the concept decides.
  if (before) f.firstEver = true;
}

const NO_ANSWER = /^(?:no|nope|nah|none|never|negative|neg|denies|n)$/i;
const YES_ANSWER = /^(?:yes|yeah|yep|yup|positive|pos|y|affirmative|sometimes)$/i;

/** Applies a yes/no answer sentence to the findings of the question before it; false when it is no answer. */
function answerTo(asked: TextFinding[], said: string): boolean {
  const word = said.replace(/[.!,;:\s]+/g, ' ').trim();
  const no = NO_ANSWER.test(word);
  if (!no && !YES_ANSWER.test(word)) return false;
  for (const f of asked) {
    if (f.assertion === 'hypothetical') continue;
    f.assertion = no ? 'absent' : 'present';
    f.cue = no ? word : null;
  }
  return true;
}

const FIRST_PERSON =
  /\b(?:i|i'm|i've|i'd|im|ive|me|myself)\b|\bmy\s+(?!(?:little\s+|baby\s+|\d)|(?:son|daughter|baby|child|kid|boy|girl|toddler|infant|husband|wife|mom|mum|mother|dad|father|brother|sister|friend|grandma|grandpa)\b)[a-z]+/i;
const CHILD_CUE = /^(?<noun>son|daughter|kid|child|baby|boy|girl|toddler|infant)\b/i;

/**
 * A parent writing only about their child ("my son has a barking cough and sounds hoarse",
 * no "I", no "my throat") describes the patient; a mention next to the writer's own
 * symptoms, or alone ("my son has a cold"), stays an 'other' experiencer (a contact).
 */
function relativeAsPatient(text: string, findings: TextFinding[], demographics: TextAnalysis['demographics']): void {
  if (FIRST_PERSON.test(text) || findings.length < 2) return;
  const about = findings.filter((f) => f.experiencer === 'other' && f.cue !== null && CHILD_CUE.test(f.cue));
  if (about.length === 0) return;
  const noun = CHILD_CUE.exec(about[0]!.cue!)!.groups!.noun;
  for (const f of about) {
    f.experiencer = 'patient';
    if (f.assertion === 'present' && f.temporality === 'current') f.cue = null;
  }
  demographics.sex ??= sexOf(noun);
}

export interface SentenceParts {
  /** The text with demographics and values blanked (offsets unchanged). */
  text: string;
  /** The text with only demographics blanked: value words ("2 years ago") can still be quoted as cues. */
  source: string;
  sentence: Span;
  tokens: readonly Token[];
  hits: readonly CueHit[];
  values: readonly ValueHit[];
}

function analyzeSentence(p: SentenceParts): TextFinding[] {
  const at = cueIndex(p.hits, p.tokens.length);
  const segments = segmentsOf(p.tokens, at);
  const atoms: Atom[] = segments.flatMap((s, i) => atomsOf(p.tokens, at, s, i));
  const extent = segments.map((s, i) => segmentExtent(p, segments, s, i));
  const segmentHasValue = (i: number) => p.values.some((v) => v.span.start >= extent[i]!.start && v.span.end <= extent[i]!.end);
  const contexts = assignContexts({ text: p.text, tokens: p.tokens, at, segments, atoms, segmentHasValue });
  return buildFindings({ ...p, segments, atoms, contexts, extent });
}

/** A segment's characters: its tokens and any value written before the next segment. */
function segmentExtent(p: SentenceParts, segments: readonly Segment[], s: Segment, i: number): Span {
  const start = p.tokens[s.from]!.start;
  const next = segments[i + 1];
  const limit = next ? p.tokens[next.from]!.start : p.sentence.end;
  let end = p.tokens[s.to - 1]!.end;
  for (const v of p.values) if (v.span.start >= start && v.span.end <= limit) end = Math.max(end, v.span.end);
  return { start, end };
}

/** Same text, characters of the spans replaced by spaces (offsets stay valid). */
export function blank(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.end <= at) continue;
    const from = Math.max(at, s.start);
    out += text.slice(at, from) + text.slice(from, s.end).replace(/[^\n]/g, ' ');
    at = s.end;
  }
  return out + text.slice(at);
}

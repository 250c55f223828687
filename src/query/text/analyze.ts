import { atomsOf, cueIndex, segmentsOf, type Atom, type Segment } from './atoms.js';
import { findCues, type CueHit } from './cues.js';
import { scanDemographics } from './demographics.js';
import { buildFindings } from './findings.js';
import { assignContexts } from './scope.js';
import { splitSentences, tokenize, type Token } from './segment.js';
import type { Span, TextAnalysis, TextFinding } from './types.js';
import { findValues, type ValueHit } from './values.js';

/**
 * Clinical free text -> atomic findings with NegEx/ConText assertions, values and the
 * patient's age and sex. Deterministic, no I/O, no logging: the text is patient data.
 */
export function analyzeClinicalText(text: string): TextAnalysis {
  const demo = scanDemographics(text);
  const masked = blank(text, demo.masks);
  const patientNouns = new Set(demo.patientNouns);
  const findings: TextFinding[] = [];
  for (const sentence of splitSentences(masked)) {
    const values = findValues(masked, sentence.start, sentence.end);
    const plain = blank(masked, values.map((v) => v.span));
    const tokens = tokenize(plain, sentence);
    const hits = findCues(tokens, patientNouns);
    findings.push(...analyzeSentence({ text: plain, sentence, tokens, hits, values }));
  }
  return { findings, demographics: demo.demographics };
}

export interface SentenceParts {
  /** The text with demographics and values blanked (offsets unchanged). */
  text: string;
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
  const chars = [...text.split('')];
  for (const s of spans) for (let k = s.start; k < s.end; k++) chars[k] = chars[k] === '\n' ? '\n' : ' ';
  return chars.join('');
}

import { isSectionHeading } from './sections/shipped-headings.js';
import { noteStructure, readTemplatedNormal, sectionAt, withSectionMeaning, type RemovedSection } from './sections/index.js';
import { shippedSectionRules } from './sections/shipped-rules.js';
import type { InputFinding } from './findings.js';
import { analyzeClinicalText, type Demographics, type TextFinding } from './analysis/index.js';
import { blank } from './analysis/analyze.js';
import { scanDemographics } from './analysis/demographics.js';
import { INVESTIGATIONS, NOTE_HEADINGS } from './analysis/cue-lexicon.js';
import { LIST_MARK } from './analysis/segment.js';

/**
 * Decomposition of manifestations (MedRAG eq. 8: q → {f_1..f_n}). Rule-based and
 * deterministic. Prose goes through the clinical text analyser (src/clinical-text/analysis: atomic
 * findings, NegEx/ConText assertions, values, age and sex); renderings of structured
 * records ("Do you have a fever? yes", "pain location: lower chest, upper chest") keep
 * their question/answer split; structured findings and DDXPlus evidence codes
 * (E_55_@_V_89) pass straight through.
 */
export interface DecomposeInput {
  text: string | null;
  findings: InputFinding[];
}

export interface DecomposeOutput {
  findings: InputFinding[];
  /** Age and sex written in the text ("61M", "I'm 34, female"); all null when none. */
  demographics: Demographics;
  /** The text's sections when it is a note with headings (sections/read-sections.ts), else null. */
  note: NoteSections | null;
}

export interface NoteSections {
  /** Section kinds in text order, as read ("hpi", "ros", "exam"...). */
  kinds: string[];
  /** The clinician's own conclusion (assessment, plan, diagnoses, hospital course): kind and characters, never the text. */
  leftOut: RemovedSection[];
}

/** DDXPlus evidence token: E_91, E_55_@_V_89, E_56_@_7. */
const CODE_TOKEN = /\bE_\d+(?:_@_[A-Za-z0-9_.]+)?\b/g;
const CODE_ONLY = /^[\s,;[\]'"]*(?:E_\d+(?:_@_[A-Za-z0-9_.]+)?[\s,;[\]'"]*)+$/;
/** Negation cues at the start of a clause, longest first. */
const NEGATION = /^(?:(?:the\s+)?patient\s+|(?:he|she|they)\s+|i\s+)?(?:no\s+(?:history|signs?|evidence|complaints?)\s+of|negative\s+for|absence\s+of|free\s+of|never\s+had|(?:does|did|do)\s*(?:not|n't)\s+(?:have|has|report|complain\s+of|feel)|has\s+not\s+had|not|denies|denied|deny|denying|without|no)\s+/i;
/** Answers that mean "no" after a question ("Do you have a fever? No"). */
const NO_ANSWER = /^(?:no|none|nowhere|never|n\/a|false|absent|not present|negative)\.?$/i;
const YES_ANSWER = /^(?:yes|true|y)\.?$/i;

export function parseCodeToken(token: string): { code: string; valueCode: string | null } {
  const [code, value] = token.split('_@_');
  return { code: code!, valueCode: value ?? null };
}

function finding(text: string, polarity: InputFinding['polarity']): InputFinding {
  return { text, polarity, code: null, valueCode: null };
}

/** Structured findings pass through; a code written as one token ("E_55_@_V_89") is split. */
function passThrough(f: InputFinding): InputFinding {
  if (f.code && f.code.includes('_@_') && !f.valueCode) return { ...f, ...parseCodeToken(f.code) };
  return { ...f };
}

/** "Q? answer" / "label: answer": the question (with its "?" or ":") and the answer. */
const QUESTION_ANSWER = /^(.*?[?:])\s+(.+)$/;

/** Split "Q? a, b and c" into one finding per answer, each carrying its question. */
function splitQuestionAnswer(m: RegExpExecArray): InputFinding[] {
  const question = m[1]!.trim();
  const answer = m[2]!.trim().replace(/[.]+$/, '');
  if (NO_ANSWER.test(answer)) return [finding(question, 'absent')];
  if (YES_ANSWER.test(answer)) return [finding(`${question} ${answer}`, 'present')];
  const items = answer.split(/\s*,\s*|\s*;\s*|\s+and\s+/).filter(Boolean);
  return items.map((item) => {
    const neg = NEGATION.exec(item);
    if (neg) return finding(`${question} ${item.slice(neg[0].length)}`, 'absent');
    // An exam line's value negated inside ("Calf: non-tender", "Neck: gland not palpably enlarged"):
    // the analysis says so (single-word negatives, NegEx), the label still names the site.
    const inner = question.endsWith(':') && INNER_NEGATION.test(item) ? innerNegation(item) : null;
    return inner ? finding(`${question} ${inner}`, 'absent') : finding(`${question} ${item}`, 'present');
  });
}

const INNER_NEGATION = /\b(?:not|non-?\w+|no|without|nil)\b/i;

/** The negated finding an item states, when the analysis reads exactly one and it is absent. */
function innerNegation(item: string): string | null {
  const read = analyzeClinicalText(item).findings;
  return read.length === 1 && read[0]!.assertion === 'absent' ? read[0]!.text : null;
}

/** "label:" lines that are prose (section headers, vitals, age/sex), not a record rendering. */
const PROSE_LABEL =
  /^(?:age|sex|gender|cc|chief complaint|hpi|history of present illness|pmh|pmhx|past medical history|psh|past surgical history|fhx|fh|family history|fam hx|sh|social history|ros|review of systems|meds|medications|allergies|vitals|vs|exam|pe|physical exam|assessment|impression|plan|a\/p|hx|history|temp|temperature|t|tmax|pain|notes?|symptoms|complaints?|presenting complaint|pc|hpc|subjective|objective|patient|pt|lungs|heart|cv|cvs|resp|abd|abdomen|neuro|skin|ext|extremities|heent|gen|general|msk|labs|imaging|cxr|ecg|ekg|ddx|differential|differential diagnosis|negative|neg|positive|pos|denies|denied|mother|father|mom|mum|dad|brother|sister|sibling|siblings|grandmother|grandfather|grandma|grandpa|aunt|uncle|son|daughter|parents|family)$/i;
/** An investigation's or exam's heading with prose after it, an investigation maybe qualified ("CT A/P with contrast"). */
function proseHeading(label: string): boolean {
  const lower = label.toLowerCase();
  const words = lower.split(/\s+/);
  return NOTE_HEADINGS.has(lower) || INVESTIGATIONS.has(words[0]!) || INVESTIGATIONS.has(words.slice(0, 2).join(' '));
}
const QUESTION_START = /^(?:do|does|did|have|has|are|is|was|were|how|where|what|which|when|in|characterize|can|could|would|will|should|any)\b/i;
const FIRST_PERSON = /\b(?:i|i'm|i've|im|my|me)\b/i;

/**
 * The answer after a "label:" is prose, not a rendering's values, when it says who the patient is
 * ("GP: 39F, 12/7 purulent nasal discharge...", "Tel triage: 9yo boy, ..."), speaks in the first
 * person, or holds a clause longer than a value ("lump R groin that appears when lifting"). A
 * setting written before a note ("OH:", "Sports med:", "Care home note:") is no question.
 */
function proseAnswer(answer: string): boolean {
  if (FIRST_PERSON.test(answer) || NAMED_PERSON.test(answer) || scanDemographics(answer).demographics.age !== null) return true;
  return answer.split(/\s*[,;]\s*/).some((item) => item.split(/\s+/).length > 8);
}

/** "Mr P, 81, ...": a note about someone named, not a rendering's values. */
const NAMED_PERSON = /^(?:mr|mrs|ms|miss|mx|master)\.?\s+[a-z]/i;
/** "Care home note:", "Triage notes:", "Referral letter:": a note's heading, never a rendered question. */
const NOTE_LABEL = /\b(?:notes?|letter|referral|summary|entry|record)$/i;

/** A question/answer rendering of a structured record, as opposed to prose. */
function isRendering(m: RegExpExecArray): boolean {
  const label = m[1]!.slice(0, -1).trim();
  const answer = m[2]!.trim();
  if (m[1]!.endsWith(':')) return !PROSE_LABEL.test(label) && !NOTE_LABEL.test(label) && !proseHeading(label) && !isSectionHeading(label) && label.split(/\s+/).length <= 12 && !proseAnswer(answer);
  if (!QUESTION_START.test(label) || label.split(/\s+/).length < 2) return false;
  return NO_ANSWER.test(answer) || YES_ANSWER.test(answer) || (answer.split(/\s+/).length <= 8 && !FIRST_PERSON.test(answer));
}

function toInputFinding(f: TextFinding): InputFinding {
  return {
    text: f.text,
    polarity: f.assertion === 'absent' ? 'absent' : 'present',
    code: null,
    valueCode: null,
    span: f.span,
    clause: f.clause,
    assertion: f.assertion,
    experiencer: f.experiencer,
    temporality: f.temporality,
    cue: f.cue,
    values: f.values,
    ...(f.measured ? { measured: f.measured } : {}),
    ...(f.firstEver ? { firstEver: true as const } : {}),
  };
}

/** Sentences of a line with their offsets, split as the rendering splitter always has. */
function* sentencesOf(text: string): Generator<{ start: number; end: number; text: string }> {
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const mark = LIST_MARK.exec(line);
    const from = lineStart + (mark ? mark[0].length : 0);
    const body = text.slice(from, lineStart + line.length);
    let at = 0;
    for (const sep of [...body.matchAll(/(?<=[.!;])\s+|;\s*/g), null]) {
      const end = sep ? sep.index : body.length;
      const raw = body.slice(at, end);
      const s = raw.trim().replace(/[.!;]+$/, '').trim();
      if (s) yield { start: from + at, end: from + end, text: s };
      if (sep) at = sep.index + sep[0].length;
    }
    lineStart += line.length + 1;
  }
}

function textFindings(original: string): DecomposeOutput {
  if (CODE_ONLY.test(original)) {
    const findings = [...original.matchAll(CODE_TOKEN)].map((m) => ({ text: m[0], polarity: 'present' as const, ...parseCodeToken(m[0]) }));
    return { findings, demographics: NO_DEMOGRAPHICS, note: null };
  }
  // A note with headings: its conclusion is left out (blanked, offsets kept) and each finding read with its section.
  const structure = noteStructure(original, shippedSectionRules());
  const text = structure.text;
  const placed: { at: number; finding: InputFinding }[] = [];
  const rendered: { start: number; end: number }[] = [];
  for (const s of sentencesOf(text)) {
    const qa = QUESTION_ANSWER.exec(s.text);
    if (!qa || !isRendering(qa)) continue;
    rendered.push(s);
    for (const f of splitQuestionAnswer(qa)) placed.push({ at: s.start, finding: f });
  }
  // Renderings are blanked, not cut, so the analyser's offsets stay those of the request text.
  const analysis = analyzeClinicalText(blank(text, rendered));
  for (const f of analysis.findings) placed.push({ at: f.span.start, finding: toInputFinding(f) });
  placed.sort((a, b) => a.at - b.at);
  const headed = structure.sections.some((s) => s.kind !== null);
  const findings = placed.flatMap((p) => readTemplatedNormal(headed ? withSectionMeaning(p.finding, sectionAt(structure.sections, p.at), text) : p.finding));
  const note = structure.structured ? { kinds: structure.sections.flatMap((s) => (s.kind === null ? [] : [s.kind])), leftOut: structure.leftOut } : null;
  return { findings, demographics: analysis.demographics, note };
}

const NO_DEMOGRAPHICS: Demographics = { age: null, sex: null, span: null };

export function decompose(input: DecomposeInput): DecomposeOutput {
  const findings = input.findings.map(passThrough);
  if (!input.text) return { findings, demographics: { ...NO_DEMOGRAPHICS }, note: null };
  const out = textFindings(input.text);
  return { findings: [...findings, ...out.findings], demographics: { ...out.demographics }, note: out.note };
}

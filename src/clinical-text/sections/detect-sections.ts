/**
 * Section detection for clinical notes (issue 24), in the manner of medSpaCy's sectionizer: a
 * heading from the rules opens a section that runs to the next heading. Only headings in the rules
 * count ("T: 38.2", "BP: 120/80", "Pain: 7/10" stay in their section). Deterministic, no I/O.
 */
import { normalizeHeading, roleOf, type SectionRole, type SectionRule, type SectionRules } from './section-rules.js';

export interface Section {
  /** Normalized kind from the rules; null for the text before the first heading. */
  kind: string | null;
  /** The heading as written ("A/P", "IMPRESSION"); null for the text before the first heading. */
  heading: string | null;
  /** Where the heading starts (UTF-16 offset); equals `start` when there is none. */
  headingStart: number;
  /** The body: after the heading and its ':' / '-', up to the next heading (end exclusive). */
  start: number;
  end: number;
  statesDiagnosis: boolean;
  /** How the section is read (section-rules.ts); "presentation" for the text before the first heading. */
  role: SectionRole;
}

interface Entry {
  rule: SectionRule;
  ambiguous: boolean;
}

interface Compiled {
  pattern: RegExp;
  byHeading: Map<string, Entry>;
}

const compiledRules = new WeakMap<SectionRules, Compiled>();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "a/p" also matches "A / P", "assessment and plan" also "ASSESSMENT  AND PLAN". */
function headingSource(h: string): string {
  return h
    .split(/([ /&+])/)
    .map((part) => (part === ' ' ? '[ \\t]+' : /^[/&+]$/.test(part) ? `[ \\t]*${escape(part)}[ \\t]*` : escape(part)))
    .join('');
}

/** Compiled once per rules object: notes are many, rule sets few. */
function compile(rules: SectionRules): Compiled {
  const cached = compiledRules.get(rules);
  if (cached) return cached;
  const byHeading = new Map<string, Entry>();
  for (const rule of rules.sections) {
    for (const h of rule.headings) byHeading.set(normalizeHeading(h), { rule, ambiguous: rule.ambiguous.includes(h) });
  }
  // Longest first, so "discharge diagnosis" wins over "diagnosis" and "a/p" over "a".
  const alternatives = [...byHeading.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(headingSource);
  const pattern = new RegExp(`(?<![A-Za-z0-9/&+])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, 'gi');
  const compiled = { pattern, byHeading };
  compiledRules.set(rules, compiled);
  return compiled;
}

/** What may precede a heading on its line: indentation, a list mark, markdown ("## ", "**"). */
const LINE_START = /^[ \t]*(?:(?:[-*•·>#]+|\d{1,2}[.)]|[A-Za-z][.)]|[IVX]{1,4}[.)])[ \t]*)?(?:\*\*|__)?[ \t]*$/;
/** A list mark before the heading: inside a diagnosis section that is a problem-list item ("# Allergies: ..."). */
const LISTED = /^[ \t]*(?:[-*•·#]+|\d{1,2}[.)]|[a-z][.)])[ \t]/;
const SENTENCE_END = /[.!?;][ \t]*(?:\*\*|__)?$/;
/** ':' or a free-standing dash ("IMPRESSION - ..."; not "Dx-pneumonia"), markdown around it allowed. Sticky: read at the heading's end. */
const SEPARATOR = /(?:\*\*|__)?[ \t]*(?:(:)|[-–—](?=\s|$))(?:\*\*|__)?/y;
/** Nothing else on the line ("ASSESSMENT AND PLAN"), perhaps a trailing colon. */
const ALONE = /(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*(?=\r?\n|$)/y;
const NUMBER_NEXT = /[ \t]*\d/y;
/** Either of the two above can follow: the cheap test that rules out nearly every candidate (the article "a"). */
const MAYBE_HEADING_END = /(?:\*\*|__)?[ \t]*(?:[:\-–—]|\*\*|__|\r?\n|$)/y;

function stickyAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/**
 * Where the body starts when the match at [start, end) is a heading, else null. A missed
 * diagnosis heading leaks the label into the features, a false one only loses text, so headings
 * that state the diagnosis are also read mid-line (a flattened "... lungs clear Assessment: CAP"),
 * while other headings need a line start or a sentence end and cannot end a diagnosis section
 * from a problem-list line ("A/P:\n# PE: heparin\n# Allergies: stable"). Ambiguous headings (single
 * letters, "PE") need a colon and no number after it, and never end a diagnosis section either.
 */
function bodyStart(text: string, start: number, end: number, entry: Entry, current: Section): number | null {
  const sep = stickyAt(SEPARATOR, text, end);
  const alone = sep === null ? stickyAt(ALONE, text, end) : null;
  if (sep === null && alone === null) return null;
  const colon = sep?.[1] === ':';
  const { rule, ambiguous } = entry;
  // "P: 88" is a pulse and "PE: 2 cm" a measurement, not a heading.
  if (ambiguous && (!colon || stickyAt(NUMBER_NEXT, text, end + sep![0].length) !== null)) return null;
  const before = text.slice(text.lastIndexOf('\n', start - 1) + 1, start);
  const atLineStart = LINE_START.test(before);
  if (alone !== null && !atLineStart) return null;
  const afterSentence = !atLineStart && SENTENCE_END.test(before);
  // After an abbreviation mid-line it is a body region: "CT A/P:" is abdomen and pelvis.
  if (ambiguous && !atLineStart && !afterSentence && /\b[A-Z]{2,}[ \t]+$/.test(before)) return null;
  if (current.statesDiagnosis && !rule.statesDiagnosis && (ambiguous || LISTED.test(before))) return null;
  if (!atLineStart && !afterSentence && !(rule.statesDiagnosis && colon && /[A-Z]/.test(text[start]!))) return null;
  return end + (sep ?? alone)![0].length;
}

/** A body system ("LUNGS:") in a review of systems stays in it; anywhere else it is an exam's. */
function kindOf(rule: SectionRule, current: Section): Pick<Section, 'kind' | 'role'> {
  if (rule.subsection && current.kind !== null && (current.role === 'ros' || current.role === 'exam')) return { kind: current.kind, role: current.role };
  return { kind: rule.kind, role: roleOf(rule) };
}

/** Sections of a note in text order; together with their headings they cover the whole text. */
export function detectSections(text: string, rules: SectionRules): Section[] {
  const { pattern, byHeading } = compile(rules);
  const sections: Section[] = [];
  let current: Section = { kind: null, heading: null, headingStart: 0, start: 0, end: text.length, statesDiagnosis: false, role: 'presentation' };
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const end = m.index + m[0].length;
    const entry = stickyAt(MAYBE_HEADING_END, text, end) === null ? undefined : byHeading.get(normalizeHeading(m[0]));
    const body = entry === undefined ? null : bodyStart(text, m.index, end, entry, current);
    if (entry === undefined || body === null) {
      // Not a heading here; another may start inside this match ("Plan" in a rejected "Dx Plan"), so go on one character.
      pattern.lastIndex = m.index + 1;
      continue;
    }
    if (current.kind !== null || m.index > 0) sections.push({ ...current, end: m.index });
    current = { ...kindOf(entry.rule, current), heading: m[0], headingStart: m.index, start: body, end: text.length, statesDiagnosis: entry.rule.statesDiagnosis };
    pattern.lastIndex = body;
  }
  if (current.kind !== null || text.length > 0) sections.push(current);
  return sections;
}

import type { InputFinding } from './contracts.js';

/**
 * Decomposition of manifestations (MedRAG eq. 8: q → {f_1..f_n}). Rule-based and
 * deterministic: split free text into findings on newlines, list items, sentences,
 * semicolons and clauses; keep negated findings with polarity 'absent' (cue removed);
 * pass structured findings and DDXPlus evidence codes (E_55_@_V_89) straight through.
 */
export interface DecomposeInput {
  text: string | null;
  findings: InputFinding[];
}

export interface DecomposeOutput {
  findings: InputFinding[];
}

/** DDXPlus evidence token: E_91, E_55_@_V_89, E_56_@_7. */
const CODE_TOKEN = /\bE_\d+(?:_@_[A-Za-z0-9_.]+)?\b/g;
const CODE_ONLY = /^[\s,;[\]'"]*(?:E_\d+(?:_@_[A-Za-z0-9_.]+)?[\s,;[\]'"]*)+$/;
const LIST_MARK = /^\s*(?:[-*•·]|\d{1,2}[.)]|[a-z][.)])\s+/i;
/** Negation cues at the start of a clause, longest first. */
const NEGATION = /^(?:(?:the\s+)?patient\s+|(?:he|she|they)\s+|i\s+)?(?:no\s+(?:history|signs?|evidence|complaints?)\s+of|negative\s+for|absence\s+of|free\s+of|never\s+had|(?:does|did|do)\s*(?:not|n't)\s+(?:have|has|report|complain\s+of|feel)|has\s+not\s+had|not|denies|denied|deny|denying|without|no)\s+/i;
/** Answers that mean "no" after a question ("Do you have a fever? No"). */
const NO_ANSWER = /^(?:no|none|nowhere|never|n\/a|false)\.?$/i;
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

/** Split "Q? a, b and c" into one finding per answer, each carrying its question. */
function splitQuestionAnswer(segment: string): InputFinding[] | null {
  const m = /^(.*?[?:])\s+(.+)$/.exec(segment);
  if (!m) return null;
  const question = m[1]!.trim();
  const answer = m[2]!.trim().replace(/[.]+$/, '');
  if (NO_ANSWER.test(answer)) return [finding(question, 'absent')];
  if (YES_ANSWER.test(answer)) return [finding(`${question} ${answer}`, 'present')];
  const items = answer.split(/\s*,\s*|\s*;\s*|\s+and\s+/).filter(Boolean);
  return items.map((item) => {
    const neg = NEGATION.exec(item);
    return neg ? finding(`${question} ${item.slice(neg[0].length)}`, 'absent') : finding(`${question} ${item}`, 'present');
  });
}

/** A clause, with a leading negation cue turned into polarity; "no X or Y" negates both. */
function clauseFindings(clause: string): InputFinding[] {
  const neg = NEGATION.exec(clause);
  const body = neg ? clause.slice(neg[0].length) : clause;
  const polarity = neg ? 'absent' : 'present';
  const parts = neg ? body.split(/\s*,\s*(?:or\s+|nor\s+)?|\s+(?:or|nor)\s+/) : [body];
  return parts.map((p) => p.trim()).filter((p) => /[a-z0-9]/i.test(p)).map((p) => finding(p, polarity));
}

function segmentFindings(segment: string): InputFinding[] {
  const qa = splitQuestionAnswer(segment);
  if (qa) return qa;
  // Clauses: commas and "but" separate findings. A negation spans a list that closes
  // with "or"/"nor" ("no fever, chills, or cough"), as in NegEx; "but" ends its scope.
  const clauses = segment.split(/\s*,\s*|\s+(but)\s+/i).map((c) => c?.trim() ?? '');
  const out: InputFinding[] = [];
  let negateUntil = -1;
  clauses.forEach((raw, i) => {
    if (/^but\b/i.test(raw)) negateUntil = -1;
    const clause = raw.replace(/^but\b\s*/i, '');
    if (!clause) return;
    const fs = i <= negateUntil ? clauseFindings(`no ${clause.replace(/^(?:or|nor)\s+/i, '')}`) : clauseFindings(clause);
    if (i > negateUntil && fs.length > 0 && fs.every((f) => f.polarity === 'absent')) negateUntil = listEnd(clauses, i);
    out.push(...fs);
  });
  return out;
}

/** Index of the clause closing a list that starts after `i` ("or"/"nor"), else `i`. */
function listEnd(clauses: string[], i: number): number {
  for (let j = i + 1; j < clauses.length; j++) {
    const c = clauses[j]!;
    if (/^but\b/i.test(c) || c.split(/\s+/).length > 5) return i;
    if (/(?:^|\s)(?:or|nor)\s/i.test(c)) return j;
  }
  return i;
}

function textFindings(text: string): InputFinding[] {
  if (CODE_ONLY.test(text)) {
    return [...text.matchAll(CODE_TOKEN)].map((m) => ({ text: m[0], polarity: 'present' as const, ...parseCodeToken(m[0]) }));
  }
  const out: InputFinding[] = [];
  for (const line of text.split(/\r?\n+/)) {
    const item = line.replace(LIST_MARK, '').trim();
    if (!item) continue;
    // Sentence ends: . ! ; followed by space or end (not "38.5"); "?" stays inside Q/A pairs.
    for (const sentence of item.split(/(?<=[.!;])\s+|;\s*/)) {
      const s = sentence.trim().replace(/[.!;]+$/, '').trim();
      if (s) out.push(...segmentFindings(s));
    }
  }
  return out;
}

export function decompose(input: DecomposeInput): DecomposeOutput {
  const findings = input.findings.map(passThrough);
  if (input.text) findings.push(...textFindings(input.text));
  return { findings };
}

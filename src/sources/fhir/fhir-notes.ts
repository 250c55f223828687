import type { Attachment, CodeableConcept, DiagnosticReport, DocumentReference } from '@medplum/fhirtypes';
import type { RecordNote } from '../../domain/record.js';
import type { RowProblem } from '../row-issues.js';
import { datePart, normalizeReference } from './fhir-codes.js';

/**
 * Clinical notes of FHIR resources: DocumentReference with an inline text attachment, and
 * DiagnosticReport (its inline presentedForm, and its conclusion). The text is kept as the
 * resource holds it (HTML reduced to its text); attachments given only by URL are never fetched.
 */
export interface FhirNote {
  note: RecordNote;
  /** The encounter the resource names (DocumentReference.context.encounter, DiagnosticReport.encounter). */
  encounterRef: string | null;
  /** Used when no encounter is named: the patient's encounter whose period holds the date. */
  patientRef: string | null;
  /** YYYY-MM-DD: DocumentReference.date (else context.period.start); DiagnosticReport effective[x] (else issued). */
  date: string | null;
  /** The resource id, to order the notes of one encounter (date, then id). */
  resourceId: string;
  location: string;
}

export interface NoteOutcome {
  notes: FhirNote[];
  /** Content that gave no note (a URL-only attachment, a PDF, an empty resource), by reason. */
  problems: RowProblem[];
}

/** Text media types read, best first: several contents of one DocumentReference are one document in several formats. */
const TEXT_TYPES = ['text/plain', 'text/markdown', 'text/html'] as const;
type TextType = (typeof TEXT_TYPES)[number];

type AttachmentRead = { kind: 'text'; text: string; type: TextType } | { kind: 'problem'; problem: RowProblem };

const mediaType = (contentType: string | undefined): { type: string; charset: string } => {
  const [type = '', ...params] = (contentType ?? '').split(';').map((p) => p.trim());
  const charset = params.map((p) => /^charset\s*=\s*"?([^"]+)"?$/i.exec(p)?.[1]).find((c) => c !== undefined) ?? 'utf-8';
  return { type: type.toLowerCase(), charset };
};

/** One attachment's text, when it is inline (`data`) and of a text type. */
export function readAttachment(a: Attachment, where: string): AttachmentRead {
  const { type, charset } = mediaType(a.contentType);
  if (a.data === undefined || a.data === '') {
    return a.url !== undefined && a.url !== ''
      ? { kind: 'problem', problem: { category: 'note-not-inline', reason: `${where}: the attachment is given by URL only (never fetched)` } }
      : { kind: 'problem', problem: { category: 'empty-note', reason: `${where}: an attachment without data or URL` } };
  }
  if (!(TEXT_TYPES as readonly string[]).includes(type)) {
    return { kind: 'problem', problem: { category: 'unsupported-note-format', reason: `${where}: attachment of type ${type || '(none)'} (read: ${TEXT_TYPES.join(', ')})` } };
  }
  let decoded: string;
  try {
    decoded = new TextDecoder(charset).decode(Buffer.from(a.data, 'base64'));
  } catch {
    return { kind: 'problem', problem: { category: 'unsupported-note-format', reason: `${where}: unknown charset ${charset}` } };
  }
  const text = type === 'text/html' ? htmlToText(decoded) : decoded;
  if (text.trim() === '') return { kind: 'problem', problem: { category: 'empty-note', reason: `${where}: the attachment's text is empty` } };
  return { kind: 'text', text, type: type as TextType };
}

/**
 * The best readable attachment among alternatives of one document: the first of text/plain,
 * text/markdown, text/html; when none can be read, the problem of the first alternative.
 */
function bestAttachment(attachments: readonly Attachment[], where: string): { read: AttachmentRead; attachment: Attachment } | null {
  const reads = attachments.map((attachment) => ({ read: readAttachment(attachment, where), attachment }));
  const rank = (r: AttachmentRead) => (r.kind === 'text' ? TEXT_TYPES.indexOf(r.type) : TEXT_TYPES.length);
  return [...reads].sort((a, b) => rank(a.read) - rank(b.read))[0] ?? null;
}

const BLOCK = 'p|div|br|li|ul|ol|tr|table|thead|tbody|h[1-6]|section|article|header|footer|blockquote|pre|hr|dt|dd|dl';
/** The named entities of XML plus those common in clinical text; numeric references are all decoded. */
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', deg: '°', plusmn: '±', micro: 'µ', times: '×', divide: '÷', ge: '≥', le: '≤',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·', bull: '•', sup2: '²', frac12: '½',
};

/** The text of an HTML fragment: tags dropped, blocks and <br> on their own lines, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(new RegExp(`</?(?:${BLOCK})\\b[^>]*>`, 'gi'), '\n')
    .replace(/<\/?t[dh]\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? m;
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

const conceptText = (cc: CodeableConcept | undefined): string | null => cc?.text ?? cc?.coding?.find((c) => c.display !== undefined)?.display ?? null;

/** A DocumentReference: one note from its best inline text content (R4: contents are one document in several formats). */
export function documentReferenceNotes(d: DocumentReference, location: string): NoteOutcome {
  const origin = `DocumentReference/${d.id}`;
  const best = bestAttachment((d.content ?? []).map((c) => c.attachment), origin);
  if (best === null) return { notes: [], problems: [{ category: 'empty-note', reason: `${origin}: no content` }] };
  if (best.read.kind === 'problem') return { notes: [], problems: [best.read.problem] };
  return {
    notes: [{
      note: { origin, title: best.attachment.title ?? d.description ?? conceptText(d.type), text: best.read.text },
      encounterRef: normalizeReference(d.context?.encounter?.[0]?.reference),
      patientRef: normalizeReference(d.subject?.reference),
      date: datePart(d.date) ?? datePart(d.context?.period?.start),
      resourceId: String(d.id),
      location,
    }],
    problems: [],
  };
}

/**
 * A DiagnosticReport: its inline presentedForm (one note: the report in its best text format)
 * and its conclusion (a note titled "<report>: conclusion": it states the report's
 * interpretation, which the build must treat as such). Results are read as Observations.
 */
export function diagnosticReportNotes(r: DiagnosticReport, location: string): NoteOutcome {
  const origin = `DiagnosticReport/${r.id}`;
  const name = conceptText(r.code);
  const base = {
    encounterRef: normalizeReference(r.encounter?.reference),
    patientRef: normalizeReference(r.subject?.reference),
    date: datePart(r.effectiveDateTime) ?? datePart(r.effectivePeriod?.start) ?? datePart(r.issued),
    resourceId: String(r.id),
    location,
  };
  const out: NoteOutcome = { notes: [], problems: [] };
  const best = bestAttachment(r.presentedForm ?? [], origin);
  if (best?.read.kind === 'problem') out.problems.push(best.read.problem);
  if (best?.read.kind === 'text') out.notes.push({ ...base, note: { origin, title: best.attachment.title ?? name, text: best.read.text } });
  if (typeof r.conclusion === 'string' && r.conclusion.trim() !== '') {
    out.notes.push({ ...base, note: { origin: `${origin} conclusion`, title: name === null ? 'Conclusion' : `${name}: conclusion`, text: r.conclusion } });
  }
  if (out.notes.length === 0 && out.problems.length === 0) {
    out.problems.push({ category: 'empty-note', reason: `${origin}: no presentedForm text and no conclusion (its results are read as Observations)` });
  }
  return out;
}

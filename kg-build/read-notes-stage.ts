import type { Finding, NormalizedRecord } from '../src/domain/record.js';
import { readNotes, type NoteReaderDeps } from '../src/clinical-text/read-notes.js';
import { EMERGENT_CANDIDATE, featureKey } from './feature-key.js';

/**
 * Build stage before the scan (issue 24): every record's notes are read into findings
 * (src/clinical-text/read-notes.ts) and added to its coded findings; candidate emergent
 * phrases ride along as findings of their own kind until decomposition groups them. The
 * record's text (what the record index embeds and evaluation asks) gains the vocabulary findings
 * read, never the note nor a candidate phrase: the raw note is not kept past this stage.
 */
export interface ReadNotesReport {
  /** Records that had notes, and the notes read. */
  records: number;
  notes: number;
  /** Vocabulary findings read (present and absent) and findings no vocabulary read. */
  findings: number;
  unread: number;
  /** Section kind → characters left out because the section states the diagnosis. */
  leftOut: Record<string, number>;
  /** Identifier kind → identifiers scrubbed before reading. */
  scrubbed: Record<string, number>;
  /** Feature keys read from notes (vocabulary concepts): each must reach k records to enter the KG. */
  keys: Set<string>;
  /** Feature keys some record carries as a source code: such a feature is not one learnt from notes only. */
  codedKeys: Set<string>;
}

export const emptyNotesReport = (): ReadNotesReport => ({ records: 0, notes: 0, findings: 0, unread: 0, leftOut: {}, scrubbed: {}, keys: new Set(), codedKeys: new Set() });

const merge = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

export function withNotesRead(r: NormalizedRecord, deps: NoteReaderDeps, report: ReadNotesReport): NormalizedRecord {
  if (!r.notes || r.notes.length === 0) return r;
  const reading = readNotes(r.notes, deps);
  report.records++;
  report.notes += r.notes.length;
  report.findings += reading.findings.length;
  report.unread += reading.unread;
  merge(report.leftOut, reading.leftOut);
  merge(report.scrubbed, reading.scrubbed);
  // A concept the record also carries as a code keeps the source's own answer.
  const coded = new Set(r.findings.map(featureKey));
  const fromNotes = reading.findings.filter((f) => !coded.has(featureKey(f)));
  for (const f of fromNotes) if (f.polarity === 'present') report.keys.add(featureKey(f));
  const candidates: Finding[] = reading.candidates.map((p) => ({
    text: p.key, polarity: 'present', code: null, valueCode: null, question: null, valueText: p.surface, antecedent: null,
    concept: { vocabulary: EMERGENT_CANDIDATE, forms: [p.surface] },
  }));
  // Vocabulary findings only: a candidate phrase may be one patient's (k is known after the scan),
  // and the record text reaches records.jsonl, the record index and the trace.
  const said = fromNotes.map((f) => `${f.polarity === 'absent' ? 'no ' : ''}${f.text}`);
  const { notes: _raw, ...rest } = r;
  const text = [r.text, ...said].filter(Boolean).join('\n');
  return { ...rest, findings: [...r.findings, ...fromNotes, ...candidates], text, retrievalText: [r.text, ...reading.prepared].filter(Boolean).join('\n'), ...(r.findings.length === 0 ? { incomplete: true } : {}) };
}

/**
 * `deps` may be a loader: the vocabularies (HPO's 18k concepts, the DDXPlus question set) are
 * loaded when the first record with notes arrives, so a coded-only source never pays for them.
 */
export async function* readRecordNotes(records: AsyncIterable<NormalizedRecord>, deps: NoteReaderDeps | (() => Promise<NoteReaderDeps>), report: ReadNotesReport, include?: (r: NormalizedRecord) => boolean): AsyncIterable<NormalizedRecord> {
  let loaded = typeof deps === 'function' ? null : deps;
  for await (const r of records) {
    // A held-out record is never read: the scan drops it, and its notes must not shape the report.
    if (include && !include(r)) {
      yield r;
      continue;
    }
    for (const f of r.findings) if (f.polarity === 'present') report.codedKeys.add(featureKey(f));
    if (r.notes && r.notes.length > 0 && loaded === null) loaded = await (deps as () => Promise<NoteReaderDeps>)();
    yield loaded ? withNotesRead(r, loaded, report) : r;
  }
}

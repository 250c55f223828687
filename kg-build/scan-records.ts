import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { AnswerType, NormalizedRecord } from '../src/domain/record.js';
import type { RawDiagnosis } from './cluster-diseases.js';
import { featureKey } from './feature-key.js';
import { emptyTally, tally, type DemographicTally } from '../src/domain/demographics.js';
import { recordSummary } from '../src/presentation/record-summary.js';
import { shippedVoice } from '../src/presentation/shipped-voice.js';
import { EMERGENT_CANDIDATE } from '../src/clinical-text/concepts/tiers.js';

/**
 * Stage 0: the one pass over the source. Sources stream, so everything later stages need
 * is gathered here: raw diagnosis counts (for clustering), feature provenance, and a local
 * spool of the kept records (id, diagnosis, text, feature keys) that decomposition and the
 * index stage re-read instead of querying the source again.
 */
export interface FeatureProto {
  key: string;
  text: string;
  code: string | null;
  valueCode: string | null;
  question: string | null;
  valueText: string | null;
  antecedent: boolean | null;
  /** The source's declared answer type of the question (kept on the feature node for consultations). */
  answerType: AnswerType | null;
  /** The source question this one is asked under (Finding.parentCode). */
  parentCode: string | null;
  /** A concept read from notes (Finding.concept): its vocabulary and forms. */
  vocabulary: string | null;
  forms: string[] | null;
  xrefs: string[] | null;
}

export interface SpoolRow {
  id: string;
  diagnosis: string;
  text: string;
  /** The record as a clinician reads it (presentation/record-summary.ts), shown for a similar record instead of `text`. */
  summary: string;
  /** NormalizedRecord.retrievalText: what the record index embeds instead of `text` (the spool is deleted after the build). */
  embed?: string;
  /** NormalizedRecord.incomplete, with the features its notes deny: with the present ones, what the record says anything about. */
  incomplete?: { absent: string[] };
  /** The record had notes (read-notes-stage set NormalizedRecord.retrievalText): it counts towards its disease's NOTES_MENTION edges. */
  noted?: true;
  features: string[];
}

export interface RecordScan {
  recordCount: number;
  /** Records the `include` predicate dropped (held-out test patients). */
  excluded: number;
  /** Findings with polarity "absent": evidence against, not a manifestation edge. */
  absentFindings: number;
  diagnoses: RawDiagnosis[];
  features: Map<string, FeatureProto>;
  spoolPath: string;
  /** Hash of the kept records' ids, diagnoses and feature keys: part of the build id. */
  fingerprint: string;
}

export interface ScanInput {
  records: AsyncIterable<NormalizedRecord>;
  spoolPath: string;
  include?: (r: NormalizedRecord) => boolean;
  onRecord?: (kept: number) => void;
}

export async function scanRecords(input: ScanInput): Promise<RecordScan> {
  const out = createWriteStream(input.spoolPath, { encoding: 'utf8' });
  const hash = createHash('sha256');
  const diag = new Map<string, { count: number; icd: Map<string, number>; demographics: DemographicTally }>();
  const features = new Map<string, FeatureProto>();
  let recordCount = 0;
  let excluded = 0;
  let absentFindings = 0;
  // A feature's label is rendered once per build, not once per record that shows it.
  const labels = new Map<string, string>();
  const voice = shippedVoice();
  try {
    for await (const r of input.records) {
      if (input.include && !input.include(r)) {
        excluded++;
        continue;
      }
      const keys = new Set<string>();
      const denied = new Set<string>();
      // The summary names the present findings, not an emergent candidate phrase (it may be one patient's words: k is known after the scan).
      const named: string[] = [];
      for (const f of r.findings) {
        if (f.polarity === 'absent') {
          absentFindings++;
          if (r.incomplete) denied.add(featureKey(f));
          continue;
        }
        const key = featureKey(f);
        keys.add(key);
        if (f.concept?.vocabulary !== EMERGENT_CANDIDATE) {
          let label = labels.get(key);
          if (label === undefined) labels.set(key, (label = voice.label(f)));
          named.push(label);
        }
        const known = features.get(key);
        // A note read into a source's own concept brings its synonyms: the query reads the feature by them too.
        if (known && known.forms === null && f.concept?.forms?.length) features.set(key, { ...known, vocabulary: known.vocabulary ?? f.concept.vocabulary, forms: f.concept.forms });
        if (!known) features.set(key, { key, text: f.text, code: f.code, valueCode: f.valueCode, question: f.question, valueText: f.valueText, antecedent: f.antecedent, answerType: f.answerType ?? null, parentCode: f.parentCode ?? null, vocabulary: f.concept?.vocabulary ?? null, forms: f.concept?.forms ?? null, xrefs: f.concept?.xrefs ?? null });
      }
      const d = diag.get(r.diagnosis) ?? { count: 0, icd: new Map<string, number>(), demographics: emptyTally() };
      d.count++;
      tally(d.demographics, r);
      if (r.icd10) d.icd.set(r.icd10, (d.icd.get(r.icd10) ?? 0) + 1);
      diag.set(r.diagnosis, d);
      const row: SpoolRow = { id: r.id, diagnosis: r.diagnosis, text: r.text, summary: recordSummary(r, named), features: [...keys].sort(), ...(r.retrievalText ? { embed: r.retrievalText } : {}), ...(r.retrievalText != null ? { noted: true as const } : {}), ...(r.incomplete ? { incomplete: { absent: [...denied].sort() } } : {}) };
      hash.update(`${r.id}\u0000${r.diagnosis}\u0000${row.features.join(',')}\n`);
      if (!out.write(JSON.stringify(row) + '\n')) await once(out, 'drain');
      recordCount++;
      input.onRecord?.(recordCount);
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  const diagnoses = [...diag.entries()].map(([raw, d]) => ({
    raw,
    count: d.count,
    icd10: [...d.icd.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null,
    demographics: d.demographics,
  }));
  return { recordCount, excluded, absentFindings, diagnoses, features, spoolPath: input.spoolPath, fingerprint: hash.digest('hex').slice(0, 16) };
}

/** Re-reads the spool written by `scanRecords`, one row at a time. */
export async function* readSpool(path: string): AsyncIterable<SpoolRow> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) if (line.length > 0) yield JSON.parse(line) as SpoolRow;
}

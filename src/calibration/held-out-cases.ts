/**
 * The held-out cases a calibration is fitted on, as the requests a client would send:
 *  - a held-out record as coded findings three ways — the whole record (the full protocol),
 *    the chief complaint with age and sex (the interactive protocol's first turn), and the
 *    complaint plus the first third of the findings — so the fit sees scant and complete
 *    descriptions (β depends on completeness, temperature.ts);
 *  - the record's rendered text, when it has one (free text of every length), and its notes;
 *  - labelled free-text cases (text-cases.ts: e.g. the vignette dev sets), read as text.
 * Records must be unseen by the build (the CLI checks the index, src/eval/leakage.ts).
 */
import type { NormalizedRecord } from '../domain/record.js';
import { interactiveStart } from '../eval/dialogue-protocols.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type InputFinding } from '../query/contracts.js';
import type { InputKind } from './temperature.js';
import type { TextCase } from './text-cases.js';

export interface CalibrationCase {
  kind: InputKind;
  /** Which variant of which source (counted in the calibration file; never patient text). */
  variant: string;
  input: DiagnoseInput;
  /** The true disease's id in the KG. */
  truth: string;
}

const opts = { ...DEFAULT_OPTIONS, followUps: 0, reasoner: 'evidence' as const };
const asInput = (f: NormalizedRecord['findings'][number]): InputFinding => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode });
const coded = (findings: InputFinding[], rec: NormalizedRecord): DiagnoseInput => ({ text: null, findings, age: rec.age, sex: rec.sex, options: opts });

/**
 * Records whose diagnosis is no disease of the KG (`truthOf` null) are left out: they carry no
 * likelihood to fit. A record with notes gives its notes as one text case (the build's own free
 * text, as a clinician would post the note); one with notes only has no coded case.
 */
export function casesFromRecords(records: readonly NormalizedRecord[], truthOf: (rec: NormalizedRecord) => string | null): CalibrationCase[] {
  const out: CalibrationCase[] = [];
  for (const rec of records) {
    const truth = truthOf(rec);
    if (truth === null) continue;
    const all = rec.findings.map(asInput);
    if (all.length > 0) {
      out.push({ kind: 'coded', variant: 'record', input: coded(all, rec), truth });
      const start = interactiveStart(rec).findings;
      if (start.length > 0 && start.length < all.length) {
        out.push({ kind: 'coded', variant: 'chief-complaint', input: coded(start, rec), truth });
        const third = [...start, ...all.filter((f) => !start.some((s) => s.code === f.code && s.valueCode === f.valueCode)).slice(0, Math.ceil(all.length / 3))];
        if (third.length < all.length) out.push({ kind: 'coded', variant: 'partial', input: coded(third, rec), truth });
      }
      if (rec.text.trim() !== '') out.push({ kind: 'text', variant: 'record-text', input: { text: rec.text, findings: [], age: rec.age, sex: rec.sex, options: opts }, truth });
    }
    const notes = (rec.notes ?? []).map((n) => n.text.trim()).filter(Boolean).join('\n\n');
    if (notes !== '') out.push({ kind: 'text', variant: 'record-notes', input: { text: notes, findings: [], age: rec.age, sex: rec.sex, options: opts }, truth });
  }
  return out;
}

export function casesFromText(cases: readonly TextCase[], truthOf: (c: TextCase) => string | null): CalibrationCase[] {
  return cases.flatMap((c) => {
    const truth = truthOf(c);
    return truth === null ? [] : [{ kind: 'text' as const, variant: 'text-case', input: { text: c.text, findings: [], age: c.age, sex: c.sex, options: opts }, truth }];
  });
}

/**
 * DDXPlus's interactive protocol and MedRAG's masking protocol (Table 3), both driven
 * through the server's consultation sessions:
 *  - interactive: start from age, sex and the initial evidence only, then follow-ups;
 *  - masking: hide the top r% of the patient's findings by discriminability sigma
 *    (MedRAG eq. 15: rarest across diseases first), start from the rest, then follow-ups.
 * The simulated patient answers from the full held-out record in both.
 */
import type { NormalizedRecord } from '../domain/record.js';
import type { FeatureIdScheme } from '../followups/record-kg.js';
import { summarize, type AccuracyRow, type DialogueRun, type RecordWorld } from '../followups/simulate.js';
import type { RankerName } from '../followups/ranker.js';
import type { InputFinding } from '../query/contracts.js';
import { sigma } from '../query/discriminability.js';
import { codeKey, type KgSnapshot } from '../query/kg-snapshot.js';
import { memoFeatureIds } from './memo-feature-ids.js';
import { sessionDialogue, type DialogueStart, type SessionPort } from './session-dialogue.js';

const asInput = (f: NormalizedRecord['findings'][number]): InputFinding => ({ text: f.text, polarity: f.polarity, code: f.code, valueCode: f.valueCode });

/**
 * The chief complaint (DDXPlus INITIAL_EVIDENCE); without one, the record's first present finding
 * of the visit itself (history is what the patient had before, not why they came), else its first present one.
 */
export function interactiveStart(rec: NormalizedRecord): DialogueStart {
  const initial = rec.initialFindingCode !== null ? rec.findings.filter((f) => f.code === rec.initialFindingCode) : [];
  const present = rec.findings.filter((f) => f.polarity === 'present');
  const opening = present.find((f) => f.antecedent !== true) ?? present[0];
  const first = initial.length > 0 ? initial : opening ? [opening] : [];
  return { findings: first.map(asInput), age: rec.age, sex: rec.sex };
}

/** Findings ordered most discriminative first (highest sigma); findings not in the KG count as sigma 0. */
export function findingsBySigma(s: KgSnapshot, rec: NormalizedRecord, scheme: FeatureIdScheme): NormalizedRecord['findings'] {
  const sig = (f: NormalizedRecord['findings'][number]): number => {
    const idx = f.code !== null ? s.featureByCode.get(codeKey(f.code, f.valueCode)) : s.featureIndex.get(scheme.featureId(f));
    return idx === undefined ? 0 : sigma(s, idx);
  };
  // Stable order for ties (the record's own order) keeps the protocol deterministic.
  return rec.findings.map((f, i) => ({ f, i, s: sig(f) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.f);
}

export function maskedStart(s: KgSnapshot, rec: NormalizedRecord, rate: number, scheme: FeatureIdScheme): DialogueStart {
  const ranked = findingsBySigma(s, rec, scheme);
  return { findings: ranked.slice(Math.round(rate * ranked.length)).map(asInput), age: rec.age, sex: rec.sex };
}

export interface DialogueProtocolInput {
  records: readonly NormalizedRecord[];
  /** record id → true disease id ('' never matches: unknown diagnoses are misses). */
  truth: (recordId: string) => string;
  ranker: RankerName;
  checkpoints: readonly number[];
  scheme: FeatureIdScheme;
  world?: RecordWorld;
  onDialogue?: () => void;
}

export interface DialogueOutcome {
  row: AccuracyRow;
  runs: DialogueRun[];
  /** Per run (same order), the differential shown at each checkpoint. */
  shown?: Map<number, { diseaseId: string; p: number }[]>[];
  startMs: number[];
  answerMs: number[];
}

export async function runDialogues(port: SessionPort, start: (rec: NormalizedRecord) => DialogueStart, input: DialogueProtocolInput): Promise<DialogueOutcome> {
  const runs: DialogueRun[] = [];
  const shown: DialogueOutcome['shown'] = [];
  const startMs: number[] = [];
  const answerMs: number[] = [];
  const scheme = memoFeatureIds(input.scheme);
  for (const rec of input.records) {
    const d = await sessionDialogue(port, rec, start(rec), { ranker: input.ranker, checkpoints: input.checkpoints, scheme, ...(input.world ? { world: input.world } : {}) });
    runs.push(d.run);
    shown.push(d.shownAt);
    startMs.push(d.startMs);
    answerMs.push(...d.answerMs);
    input.onDialogue?.();
  }
  const row = summarize(input.ranker, runs, (id) => input.truth(id) || '\u0000unknown', input.checkpoints, Math.max(0, ...input.checkpoints));
  return { row, runs, shown, startMs, answerMs };
}

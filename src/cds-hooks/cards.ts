import { randomUUID } from 'node:crypto';
import { isClinicalQuestion } from '../presentation/voice-checks.js';
import type { DiagnoseResult } from '../query/contracts.js';
import { SUMMARY_MAX, type Card, type Indicator } from './spec.js';

/**
 * A diagnose result as CDS Hooks cards: one card with the top diagnoses and their calibrated
 * probabilities (`differential[].score`, docs/http-api.md "What the score is"), the follow-up
 * questions most worth asking (in the clinical voice: src/presentation/), and a link to the copilot for a consultation. `indicator` is
 * `warning` when a can't-miss diagnosis is among the top three at `cantMissMin` or more: the card
 * must not read as reassurance while one is possible, and must not cry wolf for one shown at
 * "<1%" (a warning on every chart teaches clinicians to ignore it). No card when nothing of the
 * chart matched the KG.
 */
export interface CardOptions {
  /** Lower-case name fragments of can't-miss diagnoses ("pulmonary embol", "myocardial infarction"). */
  cantMiss: readonly string[];
  /** A can't-miss diagnosis warns from this probability up (DXGRAPH_CDS_CANT_MISS_MIN). */
  cantMissMin: number;
  /** The copilot page the link opens (absolute URL). */
  copilotUrl: string;
  sourceLabel: string;
  sourceUrl?: string;
  shown: number;
  questions: number;
}

export const DEFAULT_CANT_MISS = [
  'pulmonary embol', 'myocardial infarction', 'nstemi', 'stemi', 'acute coronary syndrome', 'unstable angina', 'aortic dissection',
  'meningitis', 'sepsis', 'septic shock', 'anaphylaxis', 'tension pneumothorax', 'pneumothorax', 'subarachnoid', 'stroke', 'ectopic pregnancy', 'epiglottitis',
] as const;

/** 2%: a calibrated 1 in 50 is worth ruling out for these; below it the card stays `info`. */
export const DEFAULT_CANT_MISS_MIN = 0.02;

/** "62%"; "<1%" and ">99%" for what would round to 0 or 100 (a rounded 0% reads as "ruled out", 100% as certain). */
export function percent(p: number): string {
  return p < 0.005 ? '<1%' : p >= 0.995 ? '>99%' : `${Math.round(p * 100)}%`;
}

export const isCantMiss = (disease: string, cantMiss: readonly string[]): boolean => {
  const name = disease.toLowerCase();
  return cantMiss.some((c) => new RegExp(`(^|[^a-z])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(name));
};

/** What of the chart the differential read (run-hook.ts): findings it used, facts it could not read, facts it left out by rule. */
export interface ChartRead {
  used: string[];
  unread: string[];
  /** Facts not read for a reason of their own (another visit, a diagnosis of this visit, a value without a range): a count only. */
  skipped: number;
}

/** Labels listed per line of the card, each clipped: a chart can hold hundreds of facts. */
const LISTED = 8;
const LABEL_MAX = 60;

export function resultCards(result: DiagnoseResult, opts: CardOptions, read: ChartRead | null = null): Card[] {
  if (result.differential.length === 0 || result.insufficient?.reason === 'no-finding-matched') return [];
  const top = result.differential.slice(0, opts.shown);
  const urgent = result.differential.slice(0, 3).filter((d) => d.score >= opts.cantMissMin && isCantMiss(d.disease, opts.cantMiss));
  const indicator: Indicator = urgent.length > 0 ? 'warning' : 'info';
  // Questions to the clinician about the patient only (issue 48): one a model wrote in another voice is left off the card.
  const questions = result.followUps.map((q) => q.text).filter(isClinicalQuestion).slice(0, opts.questions);
  const detail = [
    urgent.length > 0 ? `**Can't miss:** ${urgent.map((d) => d.disease).join(', ')} is among the top three; consider ruling it out first.\n` : null,
    '| Diagnosis | Probability |',
    '|---|---|',
    ...top.map((d) => `| ${escapeCell(d.disease)} | ${percent(d.score)} |`),
    '',
    probabilityNote(result),
    result.insufficient !== null ? `\n_${result.insufficient.message}_` : null,
    questions.length > 0 ? '\n**Worth asking next:**' : null,
    ...questions.map((q) => `- ${q}`),
    ...(read ? chartLines(read) : []),
  ].filter((l): l is string => l !== null);
  return [{
    uuid: randomUUID(),
    summary: summaryOf(result.differential.slice(0, 3).map((d) => ({ label: `${d.disease} ${percent(d.score)}`, urgent: urgent.includes(d) }))),
    detail: detail.join('\n'),
    indicator,
    source: { label: opts.sourceLabel, ...(opts.sourceUrl !== undefined ? { url: opts.sourceUrl } : {}) },
    links: [{ label: 'Open a consultation in the dxgraph copilot', url: opts.copilotUrl, type: 'absolute' }],
  }];
}

/**
 * "Differential: A 62%, B 21% (can't miss), C 9%", cut to 140 characters: entries that are
 * not can't-miss go first, so the one the card warns about stays readable.
 */
function summaryOf(top: Array<{ label: string; urgent: boolean }>): string {
  const entries = [...top];
  const render = () => `Differential: ${entries.map((e) => `${e.label}${e.urgent ? " (can't miss)" : ''}`).join(', ')}`;
  for (let i = entries.length - 1; render().length > SUMMARY_MAX && i > 0; i--) if (!entries[i]!.urgent) entries.splice(i, 1);
  const s = render();
  return s.length > SUMMARY_MAX ? `${s.slice(0, SUMMARY_MAX - 1)}…` : s;
}

function probabilityNote(r: DiagnoseResult): string {
  if (r.probability === null) return '_Scores are relative ranks._';
  if (r.probability.source === 'llm-confidence') return "_Probabilities are the language model's stated confidence, not calibrated._";
  return r.probability.calibrated ? '_Probabilities are calibrated on held-out cases of the build._' : '_Probabilities are the uncalibrated posterior._';
}

/** "Read from the chart: sore throat, fever" / "Not read: palpitations (and 3 more)". */
function chartLines(read: ChartRead): string[] {
  const list = (labels: string[]) => {
    const shown = labels.slice(0, LISTED).map((l) => escapeText(l.length > LABEL_MAX ? `${l.slice(0, LABEL_MAX - 1)}…` : l));
    return `${shown.join(', ')}${labels.length > LISTED ? ` (and ${labels.length - LISTED} more)` : ''}`;
  };
  return [
    '',
    read.used.length > 0 ? `**Read from the chart:** ${list(read.used)}` : null,
    read.unread.length > 0 ? `**Not read (nothing in the knowledge graph matched):** ${list(read.unread)}` : null,
    read.skipped > 0 ? `_${read.skipped} other chart fact(s) not used (another visit, this visit's diagnosis, or a value without a range)._` : null,
  ].filter((l): l is string => l !== null);
}

/** Markdown's own characters in chart text are shown, never interpreted (a display text is the EHR's, not ours). */
const escapeText = (s: string): string => s.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');

const escapeCell = (s: string): string => s.replace(/[|\\]/g, (c) => `\\${c}`).replace(/\n/g, ' ');

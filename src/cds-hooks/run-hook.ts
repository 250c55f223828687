import type { DiagnoseService } from '../http/ports.js';
import { InputError } from '../errors.js';
import type { InputFinding } from '../clinical-text/findings.js';
import { DEFAULT_OPTIONS, type DiagnoseInput, type DiagnoseResult } from '../query/contracts.js';
import { err, ok, type Result } from '../result.js';
import { resultCards, type CardOptions } from './cards.js';
import { chartResources, chartToInput, type ChartInput } from './chart-to-input.js';
import { readFhir } from './fetch-fhir.js';
import { chartPhrases, codeOf, codesMatched, phrasesUnread } from './read-uncoded.js';
import { fillTemplate } from './services.js';
import type { Card, CdsService, HookRequest } from './spec.js';

/**
 * The hook use case: the chart from the prefetch (or read from `fhirServer` for the keys the
 * client left out), mapped to a diagnose input, diagnosed, answered with cards. Expected
 * failures are values: `bad-request` (400) and `precondition` (412: data it cannot obtain).
 */
export type HookFailure = { kind: 'bad-request'; message: string } | { kind: 'precondition'; message: string };

export interface HookDeps {
  query: DiagnoseService;
  /** Identifiers scrubbed and diagnosis sections blanked (src/clinical-text/prepare-note.ts). */
  prepareNote: () => Promise<(text: string) => string>;
  cards: CardOptions;
  fhir: { timeoutMs: number; allowedServers: readonly string[] | null };
  maxTextChars: number;
  /** DXGRAPH_MAX_FINDINGS: a larger chart keeps its first (the visit's, then history); half when notes add theirs. */
  maxFindings: number;
  dropDemographics: boolean;
  today: () => string;
  fetchImpl?: typeof fetch;
}

export async function runHook(req: HookRequest, service: CdsService, deps: HookDeps, signal?: AbortSignal): Promise<Result<{ cards: Card[] }, HookFailure>> {
  if (req.hook !== service.hook) return err({ kind: 'bad-request', message: `hook: service ${service.id} answers "${service.hook}", not "${req.hook}"` });
  const values = await prefetchValues(req, service, deps);
  if (!values.ok) return values;
  const chart = readChart(values.value, req, deps.today());
  if (!chart.ok) return chart;
  const { findings, notes, age, sex, skipped } = chart.value;
  if (findings.length === 0 && notes.length === 0) return ok({ cards: [] });
  const cap = notes.length > 0 ? Math.floor(deps.maxFindings / 2) : deps.maxFindings;
  const base = { age: deps.dropDemographics ? null : age, sex: deps.dropDemographics ? null : sex };
  // The card is the evidence differential: a hook answers in the EHR's time, never the LLM's (issue 48).
  const options = { ...DEFAULT_OPTIONS, reasoner: 'evidence' as const, followUps: deps.cards.questions };
  const opts = signal !== undefined ? { signal } : {};
  const coded = findings.slice(0, cap);
  // Which of the chart's codes the KG knows: a first diagnose of the coded findings alone (no follow-ups).
  const known = coded.some((f) => f.code !== null) ? codesMatched(await deps.query.diagnose({ ...base, text: null, findings: coded, options: { ...options, followUps: 0 } }, opts)) : new Set<string>();
  const unknown = coded.filter((f) => f.code !== null && !known.has(codeOf(f)));
  const prepare = notes.length > 0 || unknown.length > 0 ? await deps.prepareNote() : null;
  // The chart's phrases first: the notes after them are what a long text loses to maxTextChars.
  const phrases = chartPhrases(unknown, prepare ?? ((t) => t));
  const noteText = prepare === null ? '' : notes.map(prepare).join('\n\n').trim();
  const text = [phrases.text, noteText].filter((t) => t !== '').join('\n\n').slice(0, deps.maxTextChars);
  const kept = coded.filter((f) => !unknown.includes(f));
  if (kept.length === 0 && text === '') return ok({ cards: [] });
  const result = await diagnoseOrNothing(deps, { ...base, text: text === '' ? null : text, findings: kept, options }, opts);
  if (result === null) return ok({ cards: [] });
  const read = { used: findingsUsed(result), unread: [...phrasesUnread(phrases, result), ...codedUnread(kept, result)], skipped: Object.values(skipped).reduce((a, n) => a + n, 0) + (findings.length - coded.length) };
  return ok({ cards: resultCards(result, deps.cards, read) });
}

/** Nothing readable in the chart's words: the reader found no finding (diagnose's "no findings" InputError), so no card. */
async function diagnoseOrNothing(deps: HookDeps, input: DiagnoseInput, opts: { signal?: AbortSignal }): Promise<DiagnoseResult | null> {
  try {
    return await deps.query.diagnose(input, opts);
  } catch (e) {
    if (e instanceof InputError && e.message.startsWith('no findings')) return null;
    throw e;
  }
}

/** What of the chart the differential used: each matched finding once, as the chart or the reader named it. */
function findingsUsed(result: DiagnoseResult): string[] {
  const used = new Set<number>(result.trace.matches.map((m) => m.findingIndex));
  return [...new Set([...used].map((i) => result.trace.findings[i]).filter((f) => f !== undefined).map((f) => (f.polarity === 'absent' ? `no ${f.text}` : f.text)))];
}

/** Coded findings the KG knew by code but that still matched nothing (a value it has no bin for). */
function codedUnread(kept: InputFinding[], result: DiagnoseResult): string[] {
  const matched = new Set(result.trace.matches.map((m) => result.trace.findings[m.findingIndex]).filter((f) => f?.code != null).map((f) => codeOf(f!)));
  return kept.filter((f) => f.code !== null && !matched.has(codeOf(f))).map((f) => f.text);
}

/**
 * The mapping reads resources as FHIR R4 shapes them; one shaped otherwise (a `coding` that is
 * not an array, a string where an object belongs) throws a TypeError there. That is the
 * client's malformed input, answered 400, not a server fault.
 */
function readChart(values: unknown[], req: HookRequest, today: string): Result<ChartInput, HookFailure> {
  try {
    return ok(chartToInput(chartResources(values), { patientId: req.context.patientId, encounterId: req.context.encounterId ?? null, today }));
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return err({ kind: 'bad-request', message: 'prefetch: a resource is not shaped as FHIR R4 (an element of the wrong type)' });
  }
}

/** Each prefetch key's value: as sent, else read from fhirServer; 412 when neither can be had. */
async function prefetchValues(req: HookRequest, service: CdsService, deps: HookDeps): Promise<Result<unknown[], HookFailure>> {
  const out: unknown[] = [];
  for (const [key, template] of Object.entries(service.prefetch ?? {})) {
    const sent = req.prefetch?.[key];
    if (sent !== undefined && sent !== null) {
      out.push(sent);
      continue;
    }
    if (req.fhirServer === undefined) return err({ kind: 'precondition', message: `prefetch.${key} is missing and no fhirServer was given to read it from` });
    if (deps.fhir.allowedServers !== null && !deps.fhir.allowedServers.includes(req.fhirServer.replace(/\/+$/, ''))) {
      return err({ kind: 'precondition', message: 'fhirServer is not one this service is configured to read (DXGRAPH_CDS_FHIR_SERVERS)' });
    }
    const query = fillTemplate(template, req.context);
    if (query === null) continue; // a token the context lacks (encounterId on patient-view): nothing to read
    const read = await readFhir({ fhirServer: req.fhirServer, query, accessToken: req.fhirAuthorization?.access_token ?? null, timeoutMs: deps.fhir.timeoutMs }, deps.fetchImpl);
    if (!read.ok) return err({ kind: 'precondition', message: read.error });
    out.push(read.value);
  }
  return ok(out);
}

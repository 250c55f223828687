import type { DiagnoseService } from '../http/ports.js';
import { DEFAULT_OPTIONS } from '../query/contracts.js';
import { err, ok, type Result } from '../result.js';
import { resultCards, type CardOptions } from './cards.js';
import { chartResources, chartToInput, type ChartInput } from './chart-to-input.js';
import { readFhir } from './fetch-fhir.js';
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
  const { findings, notes, age, sex } = chart.value;
  if (findings.length === 0 && notes.length === 0) return ok({ cards: [] });
  const prepare = notes.length > 0 ? await deps.prepareNote() : null;
  const text = prepare === null ? '' : notes.map(prepare).join('\n\n').trim().slice(0, deps.maxTextChars);
  const result = await deps.query.diagnose(
    {
      text: text === '' ? null : text,
      findings: findings.slice(0, notes.length > 0 ? Math.floor(deps.maxFindings / 2) : deps.maxFindings),
      age: deps.dropDemographics ? null : age,
      sex: deps.dropDemographics ? null : sex,
      options: { ...DEFAULT_OPTIONS, followUps: deps.cards.questions },
    },
    signal !== undefined ? { signal } : {},
  );
  return ok({ cards: resultCards(result, deps.cards) });
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

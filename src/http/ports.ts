import type { JtiClaims } from '../cds-hooks/jti-claims.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { DiagnoseInput, DiagnoseResult } from '../query/contracts.js';
import type { JsonRender } from '../query/diagnose-json.js';
import type { LlmReports } from '../reports/llm-reports.js';
import type { ConsultationPort } from '../sessions/consultation.js';
import type { Differences, DiseaseItem, KgSummary, Readiness } from './schemas.js';

/** What the HTTP layer needs from the rest of the system; passed into createApp. */
export interface DiagnoseService {
  /** `signal` aborts when the client goes away, so an LLM call can stop early. */
  diagnose(input: DiagnoseInput, opts?: { signal?: AbortSignal }): Promise<DiagnoseResult>;
  /** The `/v1/diagnose` body rendered where the diagnose ran (a worker); absent = rendered by the route. */
  diagnoseJson?(input: DiagnoseInput, render: JsonRender, opts?: { signal?: AbortSignal }): Promise<string>;
}

/** Read-only KG exploration. `differences` resolves null for an unknown subcategory id. */
export interface KgReader {
  summary(): Promise<KgSummary>;
  diseases(): Promise<DiseaseItem[]>;
  differences(subcategoryId: string): Promise<Differences | null>;
}

export interface AppDeps {
  query: DiagnoseService;
  kg: KgReader;
  /** Neo4j reachable? indexes (snapshot, FAISS) loaded? */
  readiness: () => Promise<Readiness>;
  /** `limits` absent (hand-built test configs) = DEFAULT_LIMITS. */
  config: Pick<Config, 'http' | 'privacy' | 'limits' | 'cds'>;
  /** Resolved keys (env + key file); empty = no auth (loopback only). */
  apiKeys: readonly string[];
  logger: Logger;
  version?: string;
  /** Consultation sessions (`/v1/sessions`); absent = not mounted. */
  consultation?: ConsultationPort;
  /** Where accepted CDS client JWT ids are remembered (src/cds-hooks/jti-claims.ts); absent = this process's memory. */
  jtiClaims?: JtiClaims;
  /** The LLM's reports, fetched apart from the differential (src/reports); absent = the LLM answers /v1/diagnose in line. */
  reports?: Pick<LlmReports, 'start' | 'store'>;
}

import { z } from 'zod';
import {
  DiagnoseResultSchema,
  DifferencesSchema,
  DiseaseListSchema,
  ErrorSchema,
  HealthSchema,
  KgSummarySchema,
  ReadySchema,
  diagnoseRequestSchema,
} from './schemas.js';
import { AnswersRequestSchema, SessionHistorySchema, SessionViewSchema, startSessionSchema } from '../sessions/schemas.js';
import { CDS_REQUEST_COMPONENTS, cdsPaths } from './openapi-cds.js';

/**
 * The OpenAPI 3.1 document served at `GET /openapi.json`, generated from the zod
 * schemas in schemas.ts with zod 4's `z.toJSONSchema` (OpenAPI 3.1 uses JSON Schema
 * 2020-12 natively). Request bodies are rendered as input (defaults optional),
 * responses as output.
 */
type Json = Record<string, unknown>;

function components(entries: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(entries)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' });
  // `$schema` / `$id` are noise inside an OpenAPI components section.
  return Object.fromEntries(Object.entries(out.schemas).map(([id, s]) => [id, strip(s as Json)]));
}

function strip({ $schema: _s, $id: _i, ...rest }: Json): Json {
  return rest;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, description: string) => ({ description, content: { 'application/json': { schema: ref(id) } } });
const errors = {
  '400': json('Error', 'Bad input: names the field and why'),
  '401': json('Error', 'Missing or wrong API key (when keys are configured)'),
  '429': json('Error', "RATE_LIMITED: over DXGRAPH_RATE_LIMIT_MAX requests per window, or (diagnose, session turns) over the client's share of the event loop while others compete (Retry-After)"),
  '503': json('Error', 'Neo4j (or another required service) is unreachable, or OVERLOADED: the diagnose work queue is full (Retry-After)'),
};

const sessionId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Session id from POST /v1/sessions' };
const gone = json('Error', "Unknown or expired session id, or another API key's session");

/** Consultation sessions (src/sessions/routes.ts); bodies from src/sessions/schemas.ts. */
function sessionPaths(security: Json[]): Record<string, Json> {
  return {
    '/v1/sessions': {
      post: {
        summary: 'Start a consultation from a first description: session id, differential, next questions',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('StartSessionRequest') } } },
        responses: {
          '201': json('SessionView', 'Session started from the /v1/diagnose differential for the same body'), '413': json('Error', 'Body too large'), ...errors,
          '429': json('Error', 'SESSION_QUOTA: this API key holds DXGRAPH_SESSION_MAX_PER_KEY live sessions (Retry-After)'),
          '503': json('Error', 'SESSION_CAPACITY: the server holds DXGRAPH_SESSION_MAX live sessions (Retry-After), or a required service is unreachable'),
        },
      },
    },
    '/v1/sessions/{id}/answers': {
      post: {
        summary: 'Answer follow-up questions by question id; an identical repeat changes nothing',
        security,
        parameters: [sessionId],
        requestBody: { required: true, content: { 'application/json': { schema: ref('AnswersRequest') } } },
        responses: {
          '200': json('SessionView', 'Updated differential, next questions, stop signal'), '404': gone, ...errors, '400': json('Error', 'Unknown question id or an answer of the wrong type (nothing is changed)'),
          '409': json('Error', "SESSION_TURN_LIMIT: the session reached DXGRAPH_SESSION_MAX_TURNS recorded answers (each changed answer counts one); SESSION_CONFLICT: another answer was recorded first (a concurrent request, or since the body's `version`): reload and answer again"),
          '410': json('Error', 'SESSION_BUILD_RETIRED: the session started on a KG build this server no longer serves; start a new session (its history stays readable)'),
          '503': json('Error', 'SESSION_BUILD_PENDING: the session runs on a newer KG build than this replica serves yet (rolling restart; Retry-After); OVERLOADED (Retry-After); or Neo4j unreachable'),
        },
      },
    },
    '/v1/sessions/{id}': {
      get: { summary: 'The whole history of a session', security, parameters: [sessionId], responses: { '200': json('SessionHistory', 'Description, evidence and every turn'), '404': gone, ...errors } },
      delete: { summary: "End a session, freeing a place in the key's quota", security, parameters: [sessionId], responses: { '204': { description: 'Ended' }, '404': gone, ...errors } },
    },
  };
}

export function buildOpenApi(opts: { maxTextChars: number; version: string }): Json {
  const schemas = {
    ...components(
      { DiagnoseRequest: diagnoseRequestSchema(opts.maxTextChars), StartSessionRequest: startSessionSchema(opts.maxTextChars), AnswersRequest: AnswersRequestSchema, ...CDS_REQUEST_COMPONENTS },
      'input',
    ),
    ...components(
      {
        DiagnoseResult: DiagnoseResultSchema, KgSummary: KgSummarySchema, DiseaseList: DiseaseListSchema, Differences: DifferencesSchema, Health: HealthSchema, Ready: ReadySchema, Error: ErrorSchema,
        SessionView: SessionViewSchema, SessionHistory: SessionHistorySchema,
      },
      'output',
    ),
  };
  const security = [{ bearer: [] }, { apiKey: [] }];
  return {
    openapi: '3.1.0',
    info: { title: 'dxgraph', version: opts.version, description: 'Knowledge-graph RAG for differential diagnosis (MedRAG-style KG on Neo4j)' },
    paths: {
      '/v1/diagnose': {
        post: {
          summary: 'Rank a differential for a patient description, with the whole trace',
          security,
          requestBody: { required: true, content: { 'application/json': { schema: ref('DiagnoseRequest') } } },
          responses: { '200': json('DiagnoseResult', 'Ranked differential, follow-ups and trace; with an LLM, the evidence differential at once and `report.href` for the LLM\'s answer'), '413': json('Error', 'Body too large'), ...errors },
        },
      },
      '/v1/reports/{id}': {
        get: {
          summary: "The LLM's answer to a /v1/diagnose whose `report` was pending (issue 48)",
          security,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'From `report.href` of the diagnose answer' }],
          responses: {
            '200': json('DiagnoseResult', 'The whole LLM answer (`report.status` "done"), or the evidence differential with `degraded: true` (`report.status` "failed")'),
            '202': { description: 'Still being written: `{report: {status: "pending", href}}`, poll again after Retry-After', content: { 'application/json': { schema: { type: 'object' } } } },
            '404': json('Error', "Unknown or expired report id, or another API key's report (DXGRAPH_REPORT_TTL_MS)"),
            ...errors,
          },
        },
      },
      ...sessionPaths(security),
      '/v1/kg/summary': { get: { summary: 'Node counts per tier and the current build', security, responses: { '200': json('KgSummary', 'KG summary'), ...errors } } },
      '/v1/kg/diseases': { get: { summary: 'All L3 diseases with their subcategory and category', security, responses: { '200': json('DiseaseList', 'Diseases'), ...errors } } },
      '/v1/kg/subcategories/{id}/differences': {
        get: {
          summary: 'The differences KG of one subcategory (MedRAG eq. 14)',
          security,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'sub:example' }],
          responses: { '200': json('Differences', 'Triples of the subcategory'), '404': json('Error', 'Unknown subcategory id'), ...errors },
        },
      },
      ...cdsPaths(ref, (d) => json('Error', d)),
      '/healthz': { get: { summary: 'The process is up', responses: { '200': json('Health', 'Up') } } },
      '/readyz': { get: { summary: 'Neo4j reachable and indexes loaded', responses: { '200': json('Ready', 'Ready'), '503': json('Ready', 'Not ready') } } },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1 document' } } } },
    },
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}

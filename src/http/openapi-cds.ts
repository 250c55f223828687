import { hookRequestSchema } from '../cds-hooks/spec.js';

/**
 * The CDS Hooks routes in the OpenAPI document (src/cds-hooks, docs/cds-hooks.md). Their bodies
 * are the CDS Hooks 2.0 wire format, so the request is generated from the zod schema the route
 * validates with, and the responses point at the specification rather than restate it.
 */
type Json = Record<string, unknown>;

export const CDS_REQUEST_COMPONENTS = { CdsHookRequest: hookRequestSchema };

export function cdsPaths(ref: (id: string) => Json, errorJson: (description: string) => Json): Record<string, Json> {
  // The EHR's JWT when DXGRAPH_CDS_JWKS is configured, else the API key of the rest of the API.
  const security = [{ bearer: [] }, { apiKey: [] }];
  const object = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
  return {
    '/cds-services': {
      get: { summary: 'CDS Hooks 2.0 discovery: the services (patient-view, encounter-start) and their prefetch templates', security, responses: { '200': object('{"services": [...]} (CDS Hooks 2.0, Discovery)'), '401': errorJson('Missing or refused JWT / API key') } },
    },
    '/cds-services/{id}': {
      post: {
        summary: 'Run a CDS Hooks service: the chart (prefetch or FHIR server) to a differential, as cards',
        security,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'dxgraph-differential' }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('CdsHookRequest') } } },
        responses: {
          '200': object('{"cards": [...]} (CDS Hooks 2.0, CDS Service Response); no card for an empty chart'),
          '400': errorJson('Malformed hook request: names the field'),
          '401': errorJson('Missing or refused JWT / API key'),
          '404': errorJson('No such service'),
          '412': errorJson('Data the service needs could not be obtained (no prefetch and no usable fhirServer)'),
        },
      },
    },
  };
}

import assert from 'node:assert/strict';
import { startFakeApp, type Harness } from './http-fakes.js';

/** Every `$ref` in the document, so each can be checked to resolve. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('HTTP GET /openapi.json', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    h = await startFakeApp({ maxTextChars: 1234 });
    const res = await fetch(`${h.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = await res.json();
  });
  after(() => h.close());

  it('a client developer gets an OpenAPI 3.1 document covering every route', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/cds-services',
      '/cds-services/{id}',
      '/healthz',
      '/openapi.json',
      '/readyz',
      '/v1/diagnose',
      '/v1/kg/diseases',
      '/v1/kg/subcategories/{id}/differences',
      '/v1/kg/summary',
      '/v1/reports/{id}',
      '/v1/sessions',
      '/v1/sessions/{id}',
      '/v1/sessions/{id}/answers',
    ]);
    assert.ok(doc.paths['/v1/diagnose'].post.responses['400']);
    assert.ok(doc.paths['/v1/kg/subcategories/{id}/differences'].get.responses['404']);
    assert.ok(doc.paths['/cds-services/{id}'].post.responses['412']);
    assert.ok(doc.components.schemas.CdsHookRequest.required.includes('hookInstance'));
  });

  it('every $ref resolves to a component schema', () => {
    const all = refs(doc);
    assert.ok(all.length > 10);
    for (const r of all) {
      const id = r.replace('#/components/schemas/', '');
      assert.ok(doc.components.schemas[id], `unresolved ${r}`);
    }
  });

  it('the request schema is generated from the same zod schema the server validates with', () => {
    const req = doc.components.schemas.DiagnoseRequest;
    assert.equal(req.additionalProperties, false);
    assert.equal(req.properties.text.maxLength, 1234);
    assert.deepEqual(req.properties.sex.anyOf[0].enum, ['M', 'F']);
    assert.equal(req.required, undefined);
    const result = doc.components.schemas.DiagnoseResult;
    assert.ok(result.required.includes('trace'));
    assert.ok(result.properties.trace.properties.differencesKg);
    assert.ok(!JSON.stringify(doc).includes('"$schema"'));
  });

  it('the consultation-session routes carry their request and response schemas', () => {
    const start = doc.paths['/v1/sessions'].post;
    assert.equal(start.requestBody.content['application/json'].schema.$ref, '#/components/schemas/StartSessionRequest');
    assert.equal(start.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/SessionView');
    const answers = doc.paths['/v1/sessions/{id}/answers'].post;
    assert.equal(answers.requestBody.content['application/json'].schema.$ref, '#/components/schemas/AnswersRequest');
    assert.equal(answers.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/SessionView');
    assert.deepEqual(answers.parameters.map((p: any) => [p.name, p.in, p.required]), [['id', 'path', true]]);
    const history = doc.paths['/v1/sessions/{id}'].get;
    assert.equal(history.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/SessionHistory');
    for (const op of [answers, history]) {
      assert.ok(op.responses['404'], 'unknown or expired id');
      assert.ok(op.responses['400']);
      assert.deepEqual(op.security, start.security);
    }

    // Generated from src/sessions/schemas.ts: strict requests, the config's text limit, the rankers, the answer kinds.
    const startReq = doc.components.schemas.StartSessionRequest;
    assert.equal(startReq.additionalProperties, false);
    assert.equal(startReq.properties.text.maxLength, 1234);
    assert.deepEqual(startReq.properties.ranker.enum, ['information-gain', 'sigma', 'random']);
    const answer = doc.components.schemas.AnswersRequest.properties.answers.items.properties.answer;
    assert.deepEqual(answer.oneOf.map((o: any) => o.properties.type.const).sort(), ['no', 'number', 'options', 'unknown', 'yes']);
    const view = doc.components.schemas.SessionView;
    for (const k of ['sessionId', 'differential', 'questions', 'stop']) assert.ok(view.required.includes(k), k);
    assert.deepEqual(view.properties.questions.items.properties.answerType.enum, ['yes-no', 'one-of', 'several-of', 'number']);
    assert.ok(doc.components.schemas.SessionHistory.required.includes('turns'));
  });
});

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
      '/healthz',
      '/openapi.json',
      '/readyz',
      '/v1/diagnose',
      '/v1/kg/diseases',
      '/v1/kg/subcategories/{id}/differences',
      '/v1/kg/summary',
    ]);
    assert.ok(doc.paths['/v1/diagnose'].post.responses['400']);
    assert.ok(doc.paths['/v1/kg/subcategories/{id}/differences'].get.responses['404']);
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
});

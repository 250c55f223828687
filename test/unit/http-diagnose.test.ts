import assert from 'node:assert/strict';
import { InputError, ServiceUnavailableError } from '../../src/errors.js';
import { DEFAULT_OPTIONS } from '../../src/query/contracts.js';
import { STACK_LIKE, postJson, startFakeApp, type Harness } from './http-fakes.js';

describe('HTTP POST /v1/diagnose (fake query service, real HTTP on port 0)', () => {
  let h: Harness;
  before(async () => {
    h = await startFakeApp({ maxTextChars: 200 });
  });
  after(() => h.close());

  it('a clinician posts a description and gets the ranked differential with its trace', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'Chest pain when breathing. No fever.', age: 40, sex: 'F' });
    assert.equal(r.status, 200);
    assert.equal(r.json.differential[0].diseaseId, 'dis:a');
    assert.ok(Array.isArray(r.json.trace.differencesKg));
    assert.equal(r.json.trace.chosenSubcategory.subcategoryId, 'sub:1');
    const input = h.calls.at(-1)!;
    assert.equal(input.text, 'Chest pain when breathing. No fever.');
    assert.equal(input.age, 40);
    assert.deepEqual(input.options, DEFAULT_OPTIONS);
  });

  it('structured findings and options reach the query service with defaults filled in', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, {
      findings: [{ text: 'fever' }, { text: 'cough', polarity: 'absent', code: 'E_1' }],
      options: { topK: 4, topM: 2, matchThreshold: 0.7, reasoner: 'evidence' },
    });
    assert.equal(r.status, 200);
    const input = h.calls.at(-1)!;
    assert.equal(input.text, null);
    assert.deepEqual(input.findings[1], { text: 'cough', polarity: 'absent', code: 'E_1', valueCode: null });
    assert.equal(input.findings[0]!.polarity, 'present');
    assert.deepEqual(input.options, { ...DEFAULT_OPTIONS, topK: 4, topM: 2, matchThreshold: 0.7, reasoner: 'evidence' });
    assert.equal(input.age, null);
  });

  it('an EHR client sends a vital as its LOINC code and value: it reaches the query as the same value written in text', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, {
      findings: [{ text: 'Heart rate', code: 'LOINC:8867-4', value: 124, unit: '/min' }, { text: 'SpO2', code: '2708-6', value: 97 }],
    });
    assert.equal(r.status, 200, r.text);
    const input = h.calls.at(-1)!;
    assert.deepEqual(input.findings, [
      { text: 'Elevated heart rate', polarity: 'present', code: null, valueCode: null, measured: { analyte: 'heart rate', loinc: '8867-4', value: 124, unit: '/min' } },
      { text: 'oxygen saturation 97 %', polarity: 'present', code: null, valueCode: null, measured: { analyte: 'oxygen saturation', loinc: '59408-5', value: 97, unit: '%', withinLimits: true } },
    ]);
  });

  const bad: [string, unknown, string][] = [
    ['a value under a code no measurement rule reads', { findings: [{ text: 'x', code: 'E_55', value: 3 }] }, 'findings.0.code'],
    ['a value under a LOINC code no rule reads', { findings: [{ text: 'total cholesterol', code: 'LOINC:2093-3', value: 3 }] }, 'findings.0.code'],
    ['a value in a unit the rule cannot convert', { findings: [{ text: 'HR', code: 'LOINC:8867-4', value: 124, unit: 'mg/dL' }] }, 'findings.0.unit'],
    ['an implausible value', { findings: [{ text: 'HR', code: 'LOINC:8867-4', value: 2000 }] }, 'findings.0.value'],
    ['a value that is not a number', { findings: [{ text: 'HR', code: 'LOINC:8867-4', value: 'fast' }] }, 'findings.0.value'],
    ['a value and a valueCode', { findings: [{ text: 'HR', code: 'LOINC:8867-4', value: 124, valueCode: 'T3' }] }, 'findings.0.valueCode'],
    ['a unit without a value', { findings: [{ text: 'HR', code: 'LOINC:8867-4', unit: '/min' }] }, 'findings.0.unit'],
    ['text is a number', { text: 42 }, 'text'],
    ['age is a string', { text: 'cough', age: 'forty' }, 'age'],
    ['findings is not a list', { findings: 'fever' }, 'findings'],
    ['a finding has no text', { findings: [{ polarity: 'present' }] }, 'findings.0.text'],
    ['polarity is not present/absent', { findings: [{ text: 'fever', polarity: 'maybe' }] }, 'findings.0.polarity'],
    ['topK is fractional', { text: 'cough', options: { topK: 2.5 } }, 'options.topK'],
    ['text is empty', { text: '' }, 'text'],
    ['text is only whitespace', { text: '   \n ' }, 'text'],
    ['text is longer than the configured limit', { text: 'x'.repeat(201) }, 'text'],
    ['neither text nor findings', { age: 30 }, 'text'],
    ['an unknown top-level field', { text: 'cough', patientName: 'Jane' }, 'patientName'],
    ['an unknown option', { text: 'cough', options: { k: 3 } }, 'options.k'],
    ['an unknown field inside a finding', { findings: [{ text: 'fever', severity: 3 }] }, 'findings.0.severity'],
    ['the body is a JSON array', [1, 2], 'body'],
  ];
  for (const [why, body, field] of bad) {
    it(`400 naming the field when ${why}`, async () => {
      const r = await postJson(`${h.url}/v1/diagnose`, body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'INPUT');
      assert.equal(r.json.error.field, field === 'body' ? null : field);
      assert.ok(r.json.error.message.startsWith(field), r.json.error.message);
      assert.doesNotMatch(r.text, STACK_LIKE);
    });
  }

  it('400 for a body that is not valid JSON', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, '{"text": "cough",');
    assert.equal(r.status, 400);
    assert.deepEqual(r.json.error, { code: 'INPUT', message: 'body: invalid JSON', field: 'body' });
  });

  it('400 for a body that is not sent as JSON', async () => {
    const res = await fetch(`${h.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'cough' });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.field, 'body');
  });

  it('413 for a body over the size limit, without reading it all into the app', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'x'.repeat(2_000_000) });
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, 'PAYLOAD_TOO_LARGE');
  });

  it('the message says why, without echoing the patient text', async () => {
    const r = await postJson(`${h.url}/v1/diagnose`, { text: 'secret-patient-words '.repeat(20) });
    assert.equal(r.status, 400);
    assert.match(r.json.error.message, /at most 200 characters/);
    assert.doesNotMatch(r.text, /secret-patient-words/);
  });
});

describe('HTTP POST /v1/diagnose failures from the query side', () => {
  const cases: [string, Error, number, string][] = [
    ['Neo4j is down', new ServiceUnavailableError('neo4j', 'Neo4j is not reachable at bolt://10.0.0.1:7687: ECONNREFUSED'), 503, 'UNAVAILABLE'],
    ['the pipeline rejects the input', new InputError('text: no findings could be read from it', { field: 'text' }), 400, 'INPUT'],
    ['a bug throws', new TypeError("Cannot read properties of undefined (reading 'x')"), 500, 'INTERNAL'],
  ];
  for (const [why, error, status, code] of cases) {
    it(`${status} ${code} when ${why}, with no stack trace or internals in the response`, async () => {
      const h = await startFakeApp({ query: { diagnose: async () => Promise.reject(error) } });
      try {
        const r = await postJson(`${h.url}/v1/diagnose`, { text: 'cough' });
        assert.equal(r.status, status);
        assert.equal(r.json.error.code, code);
        assert.doesNotMatch(r.text, STACK_LIKE);
        assert.doesNotMatch(r.text, /10\.0\.0\.1|Cannot read/);
        if (status === 503) assert.match(r.json.error.message, /Neo4j is unreachable/);
      } finally {
        await h.close();
      }
    });
  }
});

describe('HTTP POST /v1/diagnose when the client goes away', () => {
  it('aborts the signal handed to the query service (so an LLM call can stop)', async () => {
    let sawAbort!: (v: boolean) => void;
    const aborted = new Promise<boolean>((r) => (sawAbort = r));
    const h = await startFakeApp({
      query: {
        diagnose: (_input, opts) =>
          new Promise((_resolve, reject) => {
            opts?.signal?.addEventListener('abort', () => {
              sawAbort(true);
              reject(new Error('aborted'));
            });
          }),
      },
    });
    try {
      const client = new AbortController();
      const req = fetch(`${h.url}/v1/diagnose`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"cough"}', signal: client.signal });
      await new Promise((r) => setTimeout(r, 100));
      client.abort();
      await assert.rejects(req);
      const seen = await Promise.race([aborted, new Promise<boolean>((r) => setTimeout(() => r(false), 2000))]);
      assert.equal(seen, true);
    } finally {
      await h.close();
    }
  });
});

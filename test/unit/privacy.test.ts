import assert from 'node:assert/strict';
import type { NormalizedRecord } from '../../src/domain/record.js';
import { ServiceUnavailableError } from '../../src/errors.js';
import type { ConsultationPort } from '../../src/sessions/consultation.js';
import type { StartSessionRequest } from '../../src/sessions/schemas.js';
import { withoutDemographics } from '../../src/sources/drop-demographics.js';
import { openSource, parseSourceSpec } from '../../src/sources/source-spec.js';
import { postJson, startFakeApp } from './http-fakes.js';

// Distinctive patient text: if any part of it shows up in a log line, patient data leaked.
const MARKER = 'Quixotic-Zebrafinch-7731 swollen left ankle after Kilimanjaro trek';
const PIECES = ['Quixotic', 'Zebrafinch', 'Kilimanjaro'];

function fakeConsultation(seen: StartSessionRequest[]): ConsultationPort {
  const view = { sessionId: 's-1', differential: [], questions: [] } as never;
  return {
    start: async (_owner, req) => {
      seen.push(req);
      return view;
    },
    answer: async () => view,
    get: async () => view as never,
    end: async () => undefined,
  };
}

describe('patient data: never in the logs at the default level', () => {
  it('diagnose, sessions, bad input, 404s, 503s and bugs log no patient text', async () => {
    const sessions: StartSessionRequest[] = [];
    let mode: 'ok' | 'down' | 'bug' = 'ok';
    const h = await startFakeApp({ consultation: fakeConsultation(sessions) });
    const h2 = await startFakeApp({
      consultation: fakeConsultation(sessions),
      query: {
        diagnose: async () => {
          if (mode === 'down') throw new ServiceUnavailableError('neo4j', 'Neo4j is not reachable at bolt://127.0.0.1:1');
          if (mode === 'bug') throw new TypeError('cannot read properties of undefined');
          throw new Error('unreachable');
        },
      },
    });
    try {
      const ok = await postJson(`${h.url}/v1/diagnose`, { text: MARKER, age: 41, sex: 'F', findings: [{ text: MARKER }] });
      assert.equal(ok.status, 200);
      assert.equal((await postJson(`${h.url}/v1/sessions`, { text: MARKER, age: 41 })).status, 201);
      assert.equal(sessions.length, 1);
      const bad = [
        await postJson(`${h.url}/v1/diagnose`, { text: MARKER, [MARKER]: 1 }),
        await postJson(`${h.url}/v1/diagnose`, { text: MARKER.repeat(200) }),
        await postJson(`${h.url}/v1/diagnose`, `{"text": "${MARKER}`),
        await postJson(`${h.url}/v1/sessions`, { text: MARKER, ranker: MARKER }),
        await postJson(`${h.url}/v1/sessions/${encodeURIComponent(MARKER)}/answers`, { answers: [{ questionId: MARKER, answer: { type: MARKER } }] }),
        await postJson(`${h.url}/${encodeURIComponent(MARKER)}?q=${encodeURIComponent(MARKER)}`, {}),
        await postJson(`${h.url}/v1/kg/subcategories/${encodeURIComponent(MARKER)}/differences`, {}),
      ];
      for (const r of bad) assert.ok(r.status >= 400 && r.status < 500, `${r.status}`);
      mode = 'down';
      assert.equal((await postJson(`${h2.url}/v1/diagnose`, { text: MARKER })).status, 503);
      mode = 'bug';
      assert.equal((await postJson(`${h2.url}/v1/diagnose`, { text: MARKER })).status, 500);

      const logs = [...h.logs, ...h2.logs].join('');
      // The capture works: one line per request, the 503 and the bug are there.
      assert.ok(h.logs.length >= 9, `${h.logs.length} log lines`);
      assert.match(logs, /service unavailable/);
      assert.match(logs, /unhandled error/);
      for (const piece of PIECES) assert.ok(!logs.includes(piece), `"${piece}" reached the log`);
      assert.doesNotMatch(logs, /"(age|sex|text|body)"/, 'a request field reached the log');
    } finally {
      await h.close();
      await h2.close();
    }
  });
});

describe('patient data: DXGRAPH_DROP_DEMOGRAPHICS', () => {
  it('at query time: diagnose and sessions never see age or sex', async () => {
    const sessions: StartSessionRequest[] = [];
    const on = await startFakeApp({ dropDemographics: true, consultation: fakeConsultation(sessions) });
    const off = await startFakeApp({ dropDemographics: false, consultation: fakeConsultation(sessions) });
    try {
      for (const h of [on, off]) {
        assert.equal((await postJson(`${h.url}/v1/diagnose`, { text: 'cough', age: 67, sex: 'M' })).status, 200);
        assert.equal((await postJson(`${h.url}/v1/sessions`, { text: 'cough', age: 67, sex: 'M' })).status, 201);
      }
      assert.deepEqual([on.calls[0]!.age, on.calls[0]!.sex], [null, null]);
      assert.deepEqual([off.calls[0]!.age, off.calls[0]!.sex], [67, 'M'], 'the switch, not the app, drops them');
      assert.deepEqual([sessions[0]!.age, sessions[0]!.sex], [undefined, undefined]);
      assert.deepEqual([sessions[1]!.age, sessions[1]!.sex], [67, 'M']);
      // Invalid demographics are simply gone too, not a 400 that echoes them.
      assert.equal((await postJson(`${on.url}/v1/diagnose`, { text: 'cough', age: 'forty', sex: 'X' })).status, 200);
    } finally {
      await on.close();
      await off.close();
    }
  });

  it('at build time: the source decorator removes age and sex from every DDXPlus record', async function () {
    this.timeout(30_000);
    // One pass over the sample: each record as the DDXPlus source gives it is kept (the same
    // object the decorator is handed, so a decorator that changed it in place would leave no age
    // to drop in `raw`), and the decorator's record beside it (issue 49: the sample read once).
    const opened = await openSource(parseSourceSpec('ddxplus:datasets/ddxplus'), { strict: false });
    const raw = { out: [] as NormalizedRecord[], description: opened.description };
    const seen: typeof opened = {
      description: opened.description,
      summary: () => opened.summary(),
      close: () => opened.close(),
      async *records() {
        for await (const r of opened.records()) {
          raw.out.push(r);
          yield r;
        }
      },
    };
    const source = withoutDemographics(seen);
    const dropped = { out: [] as NormalizedRecord[], description: source.description };
    try {
      for await (const r of source.records()) dropped.out.push(r);
    } finally {
      await source.close();
    }
    assert.ok(raw.out.length > 100);
    assert.equal(dropped.out.length, raw.out.length);
    assert.ok(raw.out.some((r) => /^age: \d+$/m.test(r.text) && r.age !== null), 'the sample carries ages to drop');
    assert.notEqual(dropped.description, raw.description, 'a different build id');
    for (const [i, r] of dropped.out.entries()) {
      assert.equal(r.age, null);
      assert.equal(r.sex, null);
      assert.doesNotMatch(r.text, /^age: (?!unknown$)|^sex: (?!unknown$)/m, r.id);
      assert.equal(r.id, raw.out[i]!.id);
      assert.deepEqual(r.findings, raw.out[i]!.findings);
      assert.equal(r.text.split('\n').length, raw.out[i]!.text.split('\n').length);
    }
  });
});

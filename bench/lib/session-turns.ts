/** Session answer turns over HTTP for bench/replicas.ts: start sessions and answer the first offered question until `turns` are timed. */
import { performance } from 'node:perf_hooks';

async function post(url: string, key: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

function answerFor(q: any): unknown {
  if (q.answerType === 'yes-no') return { type: 'no' };
  if (q.answerType === 'number') return { type: 'number', value: 2 };
  return { type: 'options', optionIds: [] };
}

/** Milliseconds per answer turn (the request's wall time), `turns` of them over as many sessions as needed. */
export async function answerTurns(base: string, key: string, turns: number, texts: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (let s = 0; out.length < turns; s++) {
    let view = await post(`${base}/v1/sessions`, key, { text: texts[s % texts.length] });
    for (let i = 0; i < 10 && out.length < turns && view.questions.length > 0; i++) {
      const q = view.questions[0];
      const t0 = performance.now();
      view = await post(`${base}/v1/sessions/${view.sessionId}/answers`, key, { version: view.version, answers: [{ questionId: q.id, answer: answerFor(q) }] });
      out.push(performance.now() - t0);
    }
    await fetch(`${base}/v1/sessions/${view.sessionId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  }
  return out;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

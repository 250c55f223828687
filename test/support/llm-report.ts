/**
 * The LLM's report of a `/v1/diagnose` answer (issue 48): the answer carries the evidence
 * differential and `report: {status: "pending", href}`; the report is fetched at its href. Polls
 * every 50 ms (the route asks clients for 2 s; a test waits on the event, not the hint) until the
 * href answers 200, and returns that answer and the time from `since` to it.
 */
import assert from 'node:assert/strict';

export async function fetchReport(baseUrl: string, answer: { report: { status: string; href: string | null } | null }, opts: { since: number; timeoutMs: number; headers?: Record<string, string> }): Promise<{ json: any; ms: number }> {
  assert.equal(answer.report?.status, 'pending', `the answer's report is pending: ${JSON.stringify(answer.report)}`);
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const r: Response = await fetch(`${baseUrl}${answer.report!.href}`, { headers: opts.headers });
    if (r.status === 200) return { json: await r.json(), ms: Date.now() - opts.since };
    assert.equal(r.status, 202, `the report href answered ${r.status}`);
    if (Date.now() > deadline) assert.fail(`the report was still pending after ${opts.timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

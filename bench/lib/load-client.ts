/**
 * A load client in its own process (the fairness phase's busy client, issue 28). Each
 * {type: 'run'} message runs autocannon against the server and answers {type: 'done'} with the
 * answered requests, the seconds run and the statuses. Why a process of its own: in the bench's
 * process the busy client's eight connections shared one event loop with the light client whose
 * latency is the measurement, so part of what was counted as "the server made the light client
 * wait" was the bench's own loop busy with the other client's responses. On separate hosts,
 * as clients are, that cannot happen.
 */
import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';

export interface LoadRun {
  type: 'run';
  url: string;
  key: string;
  connections: number;
  seconds: number;
  texts: readonly string[];
}

export interface LoadDone {
  type: 'done';
  /** Responses with a status under 300 (a 429 is quick and would inflate the rate). */
  answered: number;
  seconds: number;
  status: Record<string, number>;
}

async function runOnce(m: LoadRun): Promise<LoadDone> {
  let i = 0;
  let answered = 0;
  const inst = autocannon({
    url: m.url, connections: m.connections, duration: m.seconds, timeout: 30,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${m.key}` },
    requests: [{ method: 'POST', path: '/v1/diagnose', setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ text: m.texts[i++ % m.texts.length] }) }) }],
  }) as unknown as Promise<autocannon.Result> & EventEmitter;
  inst.on('response', (_c: unknown, status: number) => void (answered += status < 300 ? 1 : 0));
  const r = await inst;
  const status: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) status[k] = (v as { count: number }).count;
  return { type: 'done', answered, seconds: r.duration, status };
}

if (process.send) {
  process.on('message', (m: LoadRun | { type: 'exit' }) => {
    if (m.type === 'exit') return void process.disconnect();
    runOnce(m).then((done) => process.send!(done), (e: unknown) => process.send!({ type: 'error', message: (e as Error).message }));
  });
}

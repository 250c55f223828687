/**
 * A load client in its own process (the fairness phase's busy client, issue 28). Each
 * {type: 'run'} message runs autocannon against the server and answers {type: 'done'} with the
 * answered requests, the seconds run and the statuses. Why a process of its own: in the bench's
 * process the busy client's eight connections shared one event loop with the light client whose
 * latency is the measurement, so part of what was counted as "the server made the light client
 * wait" was the bench's own loop busy with the other client's responses. On separate hosts,
 * as clients are, that cannot happen.
 */
import { run } from './autocannon-run.js';

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
  let answered = 0;
  const r = await run({ ...m, onResponse: (_ms, status) => void (answered += status < 300 ? 1 : 0) });
  return { type: 'done', answered, seconds: r.seconds, status: r.status };
}

if (process.send) {
  process.on('message', (m: LoadRun | { type: 'exit' }) => {
    if (m.type === 'exit') return void process.disconnect();
    runOnce(m).then((done) => process.send!(done), (e: unknown) => process.send!({ type: 'error', message: (e as Error).message }));
  });
}

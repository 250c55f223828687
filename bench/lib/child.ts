/**
 * Entry of a bench phase in its own process (forked by bench/run.ts with an IPC channel),
 * so each phase's peak RSS is its own. argv[2] is the task as JSON; the result goes back
 * as one {type: 'result'} message, a failure as {type: 'error'}.
 */
import { buildPhase } from './phase-build.js';
import { faissPhase } from './phase-faiss.js';
import { servePhase } from './phase-serve.js';

type Task = { phase: 'build'; input: Parameters<typeof buildPhase>[0] } | { phase: 'serve'; input: Parameters<typeof servePhase>[0] } | { phase: 'faiss'; input: Parameters<typeof faissPhase>[0] };

const send = (m: unknown) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
const task = JSON.parse(process.argv[2]!) as Task;
try {
  let result: unknown;
  if (task.phase === 'build') result = await buildPhase(task.input);
  else if (task.phase === 'faiss') result = await faissPhase(task.input);
  else {
    const loaded = new Promise<void>((resolve) => process.on('message', (m: { type?: string }) => m.type === 'loaded' && resolve()));
    result = await servePhase(task.input, { ready: (url, texts) => void send({ type: 'ready', url, texts }), waitLoaded: () => loaded });
  }
  await send({ type: 'result', result });
} catch (e) {
  await send({ type: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  process.exitCode = 1;
}
process.disconnect();

/**
 * Child process for http-shutdown.test.ts: the real app (createApp) behind the real listen
 * and signal handling that `dxgraph serve` uses (listen.ts, graceful-stop.ts), with a
 * deterministic query fake that takes DIAGNOSE_MS per request, so requests are in flight
 * when SIGTERM arrives. Prints its URL on stdout, exits with stopOnSignals' code.
 */
import { createApp } from '../../src/http/app.js';
import { stopOnSignals } from '../../src/http/graceful-stop.js';
import { listen } from '../../src/http/listen.js';
import { createLogger } from '../../src/logger.js';
import { DIFFERENCES, DISEASES, fakeResult, SUMMARY } from './http-fakes.js';

const diagnoseMs = Number(process.env.DIAGNOSE_MS ?? 20);
const logger = createLogger({ level: 'info' });
const app = createApp({
  query: {
    diagnose: async (input) => {
      await new Promise((r) => setTimeout(r, diagnoseMs));
      return fakeResult(input);
    },
  },
  kg: { summary: async () => SUMMARY, diseases: async () => DISEASES, differences: async () => DIFFERENCES },
  readiness: async () => ({ neo4j: true, indexes: true }),
  config: { http: { host: '127.0.0.1', port: 0, apiKeys: [], apiKeyFile: null, maxTextChars: 2000 }, privacy: { dropDemographics: false } },
  apiKeys: [],
  logger,
});
const running = await listen(app, { host: '127.0.0.1', port: 0 });
const drainMs = Number(process.env.DRAIN_MS ?? 5000);
const stopped = stopOnSignals(() => running.close({ drainMs, lingerMs: Number(process.env.LINGER_MS ?? 300) }), { logger, deadlineMs: drainMs + 2000 });
// The URL only once the signal handlers are in place: the test may send SIGTERM right away.
process.stdout.write(`${running.url}\n`);
process.exit(await stopped);

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  /** Base URL, e.g. http://127.0.0.1:54321 (the real port when listening on 0). */
  url: string;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to drainMs), then close every socket. */
  close(opts?: { drainMs?: number }): Promise<void>;
}

export async function listen(app: Express, opts: { host: string; port: number }): Promise<RunningServer> {
  const server = createServer(app);
  // Bound slow clients: a request must arrive whole within 30 s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    server,
    port,
    url: `http://${hostInUrl}:${port}`,
    close: ({ drainMs = 10_000 } = {}) =>
      new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), drainMs);
        force.unref();
        server.close((e) => {
          clearTimeout(force);
          if (e) reject(e);
          else resolve();
        });
        // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
        server.closeIdleConnections();
      }),
  };
}

import { createServer, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  /** Base URL, e.g. http://127.0.0.1:54321 (the real port when listening on 0). */
  url: string;
  port: number;
  /** Graceful stop (see `close` below); resolves when every connection is gone. */
  close(opts?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** Deadline: connections still open after it are destroyed (default 10 s). */
  drainMs?: number;
  /** How long an idle keep-alive socket may still bring one last request (default 1 s). */
  lingerMs?: number;
}

/**
 * Graceful stop (issue 18: after SIGTERM the old close kept serving kept-alive connections
 * and reset them at the 10 s deadline, so requests already sent were lost):
 *  1. stop accepting connections, but do not drop idle keep-alive sockets at once: a client
 *     may have just sent a request on one that we have not read yet (Node 19+'s
 *     `server.close()` would close them immediately, hence net.Server's close here);
 *  2. every response from now on, in flight or new on a kept-alive socket, carries
 *     `Connection: close`, so the client stops reusing the socket and Node closes it after
 *     that response;
 *  3. after `lingerMs`, sockets still idle are closed (their client has gone quiet);
 *  4. after `drainMs`, whatever is left is destroyed.
 * It resolves as soon as the last connection is gone, which is at once when none is open.
 */
export async function listen(app: Express, opts: { host: string; port: number }): Promise<RunningServer> {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    if (draining) res.setHeader('Connection', 'close');
    app(req, res);
  });
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
    close: ({ drainMs = 10_000, lingerMs = 1000 } = {}) =>
      new Promise<void>((resolve, reject) => {
        draining = true;
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        const linger = setTimeout(() => server.closeIdleConnections(), Math.min(lingerMs, drainMs));
        const force = setTimeout(() => server.closeAllConnections(), drainMs);
        linger.unref();
        force.unref();
        NetServer.prototype.close.call(server, (e?: Error) => {
          clearTimeout(linger);
          clearTimeout(force);
          if (e) reject(e);
          else resolve();
        });
      }),
  };
}

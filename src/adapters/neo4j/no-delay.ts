/**
 * TCP_NODELAY on the Neo4j driver's Bolt sockets (issue 28).
 *
 * Why: neo4j-driver 5 writes each message in 1,400-byte chunks, one socket write per chunk, on
 * sockets with Nagle's algorithm on (Node's default, and the driver has no option to turn it
 * off). A message longer than one chunk (a session save carries a few KB of sealed content)
 * has its second write held back until the server acknowledges the first, and the server
 * delays that ACK (up to ~40 ms on Linux) because it is waiting for the rest of the message:
 * measured on loopback, a session save took 57-66 ms p50 with Nagle and 11-18 ms without
 * (docs/deployment.md). Other drivers fixed the same stall by setting TCP_NODELAY.
 *
 * How: Node publishes every socket `net.connect` creates on the `net.client.socket`
 * diagnostics channel, before it connects; the Bolt ones are recognised by their remote port
 * once connected. Plain `bolt://` / `neo4j://` only: `tls.connect` publishes nothing there, so
 * with `bolt+s` / `neo4j+s` the stall remains (docs/deployment.md says so).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

const boltPorts = new Set<number>();
let subscribed = false;

/** Sockets this process opens to `port` get TCP_NODELAY from now on (idempotent, process-wide). */
export function noDelayForPort(port: number): void {
  boltPorts.add(port);
  if (subscribed) return;
  subscribed = true;
  subscribe('net.client.socket', (message) => {
    const socket = (message as { socket: Socket }).socket;
    socket.once('connect', () => {
      if (socket.remotePort !== undefined && boltPorts.has(socket.remotePort)) socket.setNoDelay(true);
    });
  });
}

/** The port a Bolt URI names (7687 when it names none); null for a URI this cannot read. */
export function boltPort(uri: string): number | null {
  const m = /^[a-z0-9+]+:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^:/?]+)(?::(\d+))?/i.exec(uri.trim());
  if (!m) return null;
  return m[2] ? Number(m[2]) : 7687;
}

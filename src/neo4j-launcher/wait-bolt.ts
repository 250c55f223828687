export type Probe = { up: true } | { up: false; reason: string; fatal: boolean };

/** One Bolt handshake (+ auth). A wrong password is fatal: waiting will not fix it. */
export async function probeBolt(uri: string, auth: { user: string; password: string } | null): Promise<Probe> {
  // Imported by the first probe, not with the launcher: `dxgraph neo4j status|stop` never needs the driver.
  const [{ default: neo4j }, { boltAuth }] = await Promise.all([import('neo4j-driver-lite'), import('../adapters/neo4j/bolt-auth.js')]);
  const driver = neo4j.driver(uri, boltAuth(auth), {
    connectionTimeout: 2000,
    connectionAcquisitionTimeout: 3000,
    maxConnectionPoolSize: 1,
    logging: { level: 'error', logger: () => {} },
  });
  try {
    await driver.getServerInfo();
    return { up: true };
  } catch (e) {
    const code = String((e as { code?: string }).code ?? '');
    const reason = String((e as Error).message ?? e).split('\n')[0] ?? '';
    return { up: false, reason, fatal: code.startsWith('Neo.ClientError.Security') };
  } finally {
    await driver.close();
  }
}

export async function probeHttp(url: string): Promise<Probe> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.ok ? { up: true } : { up: false, reason: `HTTP ${res.status}`, fatal: false };
  } catch (e) {
    return { up: false, reason: String((e as Error).message ?? e), fatal: false };
  }
}

export type WaitOutcome = { ok: true; ms: number } | { ok: false; why: 'timeout' | 'exited' | 'fatal'; reason: string };

/**
 * Poll until `probe` answers, the process dies, or the deadline passes. Polling (not a
 * fixed sleep) so a fast start returns fast and a crash is reported at once.
 */
export async function waitUntilUp(opts: {
  probe: () => Promise<Probe>;
  isAlive: () => boolean;
  timeoutMs: number;
  intervalMs?: number;
}): Promise<WaitOutcome> {
  const t0 = Date.now();
  let last = 'no answer yet';
  for (;;) {
    const p = await opts.probe();
    if (p.up) return { ok: true, ms: Date.now() - t0 };
    last = p.reason;
    if (p.fatal) return { ok: false, why: 'fatal', reason: last };
    if (!opts.isAlive()) return { ok: false, why: 'exited', reason: last };
    if (Date.now() - t0 > opts.timeoutMs) return { ok: false, why: 'timeout', reason: last };
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
  }
}

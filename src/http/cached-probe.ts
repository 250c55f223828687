/**
 * A probe result reused for `ttlMs` (issue 18: `/readyz` pinged Neo4j on every call, so a
 * client polling it in a loop turned into Neo4j load). Concurrent callers share the one
 * probe in flight; a failed probe is cached like a good one (a down Neo4j is not asked
 * harder); ttlMs 0 probes every time.
 */
export function cachedProbe<T>(probe: () => Promise<T>, opts: { ttlMs: number; now?: () => number }): () => Promise<T> {
  const now = opts.now ?? Date.now;
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (last && now() - last.at < opts.ttlMs) return last.value;
    const value = probe();
    const entry = { at: now(), value };
    last = entry;
    // A rejected probe is kept too (callers map a rejection to "not ready"); mark it handled here.
    value.catch(() => undefined);
    return value;
  };
}

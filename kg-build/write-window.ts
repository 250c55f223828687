/**
 * Up to `limit` writes in flight at once. The Neo4j load uses it for `:Record` batches:
 * with one batch at a time the server idles while this process shapes and sends the next
 * one (and a second core, when Neo4j has one, idles always); two in flight keep it busy.
 * The first failure stops new submissions; `drain()` waits for the writes still running
 * (never leaves one behind) and then throws that failure.
 */
export class WriteWindow {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly limit: number) {
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`WriteWindow limit must be a positive integer, got ${limit}`);
  }

  /** Starts `write` once a slot is free; rethrows an earlier write's failure instead. */
  async submit(write: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit && !this.failure) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
    // Settled, never rejected: a failure is kept for drain()/submit(), not left unhandled.
    const p: Promise<void> = write().then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= { error };
      },
    ).finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Waits for every write in flight, then throws the first failure if there was one. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
  }
}

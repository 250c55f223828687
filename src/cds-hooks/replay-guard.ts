/**
 * The `jti` of every accepted CDS client JWT until its `exp` (spec: jti is a nonce): the same
 * token presented again is a replay, refused. In memory, for one process; replicas sharing a
 * Neo4j claim jtis there instead (jti-claims.ts).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxEntries = 100_000) {}

  /** True the first time `iss`+`jti` is presented before its `exp`; false on a replay or when full. */
  accept(iss: string, jti: string, expS: number, nowS: number): boolean {
    const key = `${iss}\u0000${jti}`;
    const known = this.seen.get(key);
    if (known !== undefined && known >= nowS) return false;
    if (this.seen.size >= this.maxEntries) this.prune(nowS);
    // Still full of live tokens: refuse rather than forget one (a flood must not open replays).
    if (this.seen.size >= this.maxEntries) return false;
    this.seen.set(key, expS);
    return true;
  }

  private prune(nowS: number): void {
    for (const [k, exp] of this.seen) if (exp < nowS) this.seen.delete(k);
  }
}

import neo4j, { type Driver, type Session } from 'neo4j-driver-lite';
import { ServiceUnavailableError, ConfigError } from '../../errors.js';
import { cypher, loadStatements } from './cypher.js';
import { boltAuth } from './bolt-auth.js';
import { boltPort, noDelayForPort } from './no-delay.js';

export interface GraphStoreOptions {
  uri: string;
  user: string;
  password: string;
  database: string;
}

export type Row = Record<string, unknown>;

/**
 * Named queries this process has planned (EXPLAIN) per server run: `uri database@start time` ->
 * name -> the EXPLAIN (settled or in flight). Module-wide, so a second build in the same process
 * (a test worker's builds, a calibrated build's served build) does not plan again what the
 * server still has cached, and a plan asked for while the same one is in flight waits for it
 * (a calibrated build plans its served load while its fit KGs are built in memory).
 */
const planned = new Map<string, Map<string, Promise<void>>>();

/**
 * Thin Neo4j adapter: owns the driver, runs named Cypher with parameters, converts
 * Neo4j integers to JS numbers. Nothing connects in the constructor; call `connect()`.
 */
export class GraphStore {
  private driver: Driver | null = null;
  /** The `planned` key of the server run this store talks to, read once (serverRun()). */
  private run: Promise<string | null> | null = null;
  constructor(private readonly opts: GraphStoreOptions) {}

  get uri(): string {
    return this.opts.uri;
  }

  /**
   * Open the driver and check Bolt answers; throws a one-line ServiceUnavailableError.
   * `maxRetryMs` bounds the driver's transaction retries (default 30 s): a server passes a
   * short one so a request fails fast with 503 while Neo4j is down.
   */
  async connect(opts: { timeoutMs?: number; maxRetryMs?: number } = {}): Promise<void> {
    if (!this.driver) {
      const port = boltPort(this.opts.uri);
      if (port !== null) noDelayForPort(port); // before the driver's first socket (no-delay.ts)
      const auth = boltAuth({ user: this.opts.user, password: this.opts.password });
      try {
        this.driver = neo4j.driver(this.opts.uri, auth, {
          disableLosslessIntegers: true,
          connectionAcquisitionTimeout: opts.timeoutMs ?? 10000,
          connectionTimeout: opts.timeoutMs ?? 10000,
          maxConnectionPoolSize: 50,
          ...(opts.maxRetryMs !== undefined ? { maxTransactionRetryTime: opts.maxRetryMs } : {}),
        });
      } catch (e) {
        throw new ConfigError(`NEO4J_URI: cannot use ${this.opts.uri}: ${(e as Error).message}`);
      }
    }
    try {
      await this.driver.getServerInfo({ database: this.opts.database });
    } catch (e) {
      throw new ServiceUnavailableError('neo4j', `Neo4j is not reachable at NEO4J_URI=${this.opts.uri}: ${firstLine(e)}`, { cause: e });
    }
  }

  async ping(): Promise<boolean> {
    if (!this.driver) return false;
    try {
      await this.driver.getServerInfo({ database: this.opts.database });
      return true;
    } catch {
      return false;
    }
  }

  private session(mode: 'READ' | 'WRITE'): Session {
    if (!this.driver) throw new ServiceUnavailableError('neo4j', 'GraphStore used before connect()');
    return this.driver.session({ database: this.opts.database, defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE });
  }

  /** Run a named read query (cypher/<name>.cypher) and return plain rows. */
  async read(name: string, params: Row = {}): Promise<Row[]> {
    return this.runText(cypher(name), params, 'READ');
  }

  /** Run a named write query in its own transaction. */
  async write(name: string, params: Row = {}): Promise<Row[]> {
    return this.runText(cypher(name), params, 'WRITE');
  }

  /**
   * Run a named single-statement query as one auto-commit transaction: RUN and PULL in one
   * round trip, where `read` / `write` take two (the COMMIT waits for the results). For the
   * hot paths of a session turn (peek, save: cypher/sessions/). No driver retry: a failure
   * is the caller's to report (a retried save whose first try committed would read as a
   * conflict; unretried, the client's repeat of the same answer is a no-op 200).
   */
  async once(name: string, params: Row, mode: 'READ' | 'WRITE'): Promise<Row[]> {
    const session = this.session(mode);
    try {
      const res = await session.run(cypher(name), params);
      return res.records.map((r) => r.toObject() as Row);
    } catch (e) {
      throw this.unavailableOr(e);
    } finally {
      await session.close();
    }
  }

  /**
   * Plan a named query without running it (EXPLAIN): warms the server's planner and plan
   * cache, so the first real run does not pay for planning. Parameters may be absent.
   * Skipped when this process already planned it on this server since the server started:
   * an EXPLAIN costs the server 35-60 ms of CPU even with its plan cached (the plan description
   * it returns; 400 ms for merge-records on a test server), and a build sends 15 of them
   * (docs/testing.md, round 6: a warm build 2.5-4 -> 1.0-1.4 s of Neo4j CPU without them).
   */
  async explain(name: string): Promise<void> {
    const run = await (this.run ??= this.serverRun());
    if (run === null) return this.runText(`EXPLAIN ${cypher(name)}`, {}, 'READ').then(() => undefined);
    const plans = planned.get(run) ?? new Map<string, Promise<void>>();
    planned.set(run, plans);
    const known = plans.get(name);
    if (known) return known;
    const plan = this.runText(`EXPLAIN ${cypher(name)}`, {}, 'READ').then(() => undefined);
    plans.set(name, plan);
    // A failed plan is not remembered: the next build asks again (and reports the failure itself).
    plan.catch(() => plans.delete(name));
    return plan;
  }

  /**
   * Which server run this is: its address, database and the database's last start (a restarted
   * server has an empty plan cache). Null where the server does not say (the caller then plans
   * every time, as before).
   */
  private async serverRun(): Promise<string | null> {
    if (!this.driver) throw new ServiceUnavailableError('neo4j', 'GraphStore used before connect()');
    const session = this.driver.session({ database: 'system', defaultAccessMode: neo4j.session.READ });
    try {
      const res = await session.run(cypher('system/database-last-start'), { name: this.opts.database });
      const t = res.records[0]?.get('t');
      return typeof t === 'string' ? `${this.opts.uri} ${this.opts.database}@${t}` : null;
    } catch (e) {
      // A user without access to the system database: plan every time, as before this memo.
      if (String((e as { code?: string })?.code ?? '').startsWith('Neo.ClientError.')) return null;
      throw this.unavailableOr(e);
    } finally {
      await session.close();
    }
  }

  /** Run every statement of a multi-statement file (schema), each in its own transaction. */
  async writeAll(name: string, params: Row = {}): Promise<void> {
    for (const stmt of loadStatements(name)) await this.runText(stmt, params, 'WRITE');
  }

  /** Raw Cypher: only for tests and the explore-query runner; product code uses named queries. */
  async runText(text: string, params: Row, mode: 'READ' | 'WRITE'): Promise<Row[]> {
    const session = this.session(mode);
    try {
      const exec = mode === 'READ' ? session.executeRead.bind(session) : session.executeWrite.bind(session);
      const res = await exec((tx) => tx.run(text, params));
      return res.records.map((r) => r.toObject() as Row);
    } catch (e) {
      throw this.unavailableOr(e);
    } finally {
      await session.close();
    }
  }

  private unavailableOr(e: unknown): unknown {
    return isUnavailable(e) ? new ServiceUnavailableError('neo4j', `Neo4j is not reachable at ${this.opts.uri}: ${firstLine(e)}`, { cause: e }) : e;
  }

  async close(): Promise<void> {
    const d = this.driver;
    this.driver = null;
    if (d) await d.close();
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0] ?? '';
}

function isUnavailable(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? '';
  return code === 'ServiceUnavailable' || code === 'SessionExpired' || /ECONNREFUSED|ServiceUnavailable/.test(String((e as Error)?.message));
}

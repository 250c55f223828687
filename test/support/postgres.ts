import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm, chmod } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL bin dir; installs the `postgresql` package if none is there. */
async function postgresBinDir(): Promise<string> {
  const find = async (): Promise<string | null> => {
    const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
    const v = versions.filter((x) => /^\d+$/.test(x)).sort((a, b) => Number(b) - Number(a))[0];
    return v === undefined ? null : `/usr/lib/postgresql/${v}/bin`;
  };
  const found = await find();
  if (found !== null) return found;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env });
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { env, maxBuffer: 64 << 20 });
  const installed = await find();
  if (installed === null) throw new Error('postgresql installed but no /usr/lib/postgresql/<v>/bin');
  return installed;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A throwaway PostgreSQL cluster in a temp dir, listening on 127.0.0.1 only, trust auth.
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` OS user.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = await postgresBinDir();
  const dir = await mkdtemp(join(tmpdir(), 'dxgraph-pg-'));
  const asRoot = process.getuid?.() === 0;
  const as = async (cmd: string, args: string[]): Promise<void> => {
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]);
    else await run(join(bin, cmd), args);
  };
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  // --no-sync: a throwaway cluster need not be flushed to disk (initdb's fsync of every file took seconds).
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await as('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      // immediate: no shutdown checkpoint for data deleted the next moment (as the test Neo4j's SIGKILL).
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

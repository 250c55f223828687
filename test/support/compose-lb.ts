import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';

/**
 * The load balancer of docker-compose.yml without Docker (issue 28): a real nginx (Debian's, which
 * `npm run setup` installs) running `deploy/nginx.conf` itself, with only what Docker would
 * provide put in: the replicas' addresses for the compose service names, a loopback port for
 * `listen 8080`, and a private prefix for nginx's pid, log and temp files. Everything else
 * (round robin, passive failure checks, keep-alive, no access log, no POST retried once sent) is
 * the shipped file, so a story that passes here exercises the configuration users deploy.
 */
export interface ComposeLb {
  url: string;
  /** nginx's error log so far (upstream failures are reported there). */
  errorLog(): string;
  stop(): Promise<void>;
}

export function composeNginxConf(shipped: string, upstreams: { a: string; b: string }, port: number, prefix: string): string {
  const hostPort = (url: string) => new URL(url).host;
  // Each replacement must hit: a renamed service in the shipped file fails here, not as a hang.
  const put = (conf: string, what: RegExp, by: string) => {
    if (!what.test(conf)) throw new Error(`deploy/nginx.conf: no ${what.source} to replace`);
    return conf.replace(what, by);
  };
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(prefix, t)};`).join(' ');
  let conf = put(shipped, /server dxgraph-a:8080/, `server ${hostPort(upstreams.a)}`);
  conf = put(conf, /server dxgraph-b:8080/, `server ${hostPort(upstreams.b)}`);
  conf = put(conf, /listen 8080;/, `listen 127.0.0.1:${port};`);
  return put(conf, /http \{/, `http {\n  ${temps}`);
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

export async function startComposeLb(upstreams: { a: string; b: string }): Promise<ComposeLb> {
  const prefix = mkdtempSync(join(tmpdir(), 'dx-nginx-'));
  const port = await freePort();
  const confPath = join(prefix, 'nginx.conf');
  writeFileSync(confPath, composeNginxConf(readFileSync(join(PROJECT_ROOT, 'deploy', 'nginx.conf'), 'utf8'), upstreams, port, prefix));
  mkdirSync(join(prefix, 'logs'));
  const errorLogPath = join(prefix, 'logs', 'error.log');
  // Debian installs nginx in /usr/sbin, which is not on a non-root user's PATH.
  const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', confPath, '-g', `daemon off; pid ${join(prefix, 'nginx.pid')}; error_log ${errorLogPath} warn;`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', (e) => (stderr += `spawn nginx: ${e.message} (is nginx installed? npm run setup installs it)`));
  const url = `http://127.0.0.1:${port}`;
  const readLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '');
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || stderr.includes('spawn nginx')) throw new Error(`nginx did not start: ${stderr}${readLog()}`);
    const up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 100) throw new Error(`nginx gave no /healthz within 10 s: ${stderr}${readLog()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    errorLog: () => stderr + readLog(),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

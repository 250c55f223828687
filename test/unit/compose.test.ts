import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';
import { composeNginxConf } from '../support/compose-lb.js';

/**
 * No Docker engine here, so docker-compose.yml cannot be run in CI; this checks its
 * shape: the services, the health-gated dependency, ports, volumes and auth wiring.
 */
interface Service {
  image?: string;
  build?: string | { context: string };
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] | string; interval?: string; retries?: number };
  depends_on?: Record<string, { condition: string }>;
  command?: string[] | string;
}

// merge: compose resolves `<<: *anchor` keys (the shared replica environment).
const compose = parse(readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

describe('docker-compose.yml', () => {
  const neo4j = compose.services.neo4j!;
  const dx = compose.services['dxgraph-a']!;
  const replicas = [dx, compose.services['dxgraph-b']!];
  const job = compose.services.build!;
  const lb = compose.services.lb!;

  it('has Neo4j 5 Community, one build job, two dxgraph replicas and a load balancer', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['build', 'dxgraph-a', 'dxgraph-b', 'lb', 'neo4j']);
    assert.match(neo4j.image ?? '', /^neo4j:5(\.\d+)*-community$/);
  });

  it('publishes Bolt 7687 and HTTP 7474 on loopback only', () => {
    const targets = (neo4j.ports ?? []).map((p) => p.split(':').pop());
    assert.deepEqual(targets.sort(), ['7474', '7687']);
    for (const p of neo4j.ports ?? []) assert.match(p, /^127\.0\.0\.1:/, p);
  });

  it('takes Neo4j auth from NEO4J_AUTH and keeps data in named volumes', () => {
    assert.match(neo4j.environment?.NEO4J_AUTH ?? '', /^\$\{NEO4J_AUTH(:-[^}]*)?\}$/);
    const mounts = (neo4j.volumes ?? []).map((v) => v.split(':'));
    assert.ok(mounts.some(([vol, path]) => path === '/data' && vol! in compose.volumes), 'data volume');
    assert.ok(mounts.some(([vol, path]) => path === '/logs' && vol! in compose.volumes), 'logs volume');
  });

  it('health-checks Neo4j and starts dxgraph only once it is healthy', () => {
    const test = neo4j.healthcheck?.test;
    assert.ok(Array.isArray(test) && test[0] === 'CMD-SHELL' && /7474|7687/.test(test[1] ?? ''), 'healthcheck probes Neo4j');
    assert.ok((neo4j.healthcheck?.retries ?? 0) > 0);
    for (const s of [...replicas, job]) assert.equal(s.depends_on?.neo4j?.condition, 'service_healthy');
  });

  it('replicas start after the build job succeeded, only serve, read its artifacts read-only and share sessions in Neo4j under one key', () => {
    assert.equal(job.depends_on?.neo4j?.condition, 'service_healthy');
    for (const r of replicas) {
      assert.equal(r.depends_on?.build?.condition, 'service_completed_successfully');
      const cmd = Array.isArray(r.command) ? r.command.join(' ') : String(r.command);
      assert.match(cmd, /bin\/dxgraph\.js serve/);
      assert.doesNotMatch(cmd, /\bbuild\b/);
      assert.ok((r.volumes ?? []).includes('dxgraph-data:/data/dxgraph:ro'), 'the shared build folder, read-only');
      assert.equal(r.environment?.DXGRAPH_SESSIONS, 'neo4j');
      assert.match(r.environment?.DXGRAPH_SESSION_KEY ?? '', /^\$\{DXGRAPH_SESSION_KEY(:-[^}]*)?\}$/, 'the key comes from the operator, never from the file');
      assert.equal(r.environment?.DXGRAPH_DATA_DIR, job.environment?.DXGRAPH_DATA_DIR);
    }
    assert.ok((job.volumes ?? []).includes('dxgraph-data:/data/dxgraph'));
  });

  it('the load balancer is the only published API port (loopback) and sends to both replicas', () => {
    assert.deepEqual(lb.ports, ['127.0.0.1:${PORT:-8080}:8080']);
    for (const r of replicas) assert.equal(r.ports, undefined);
    for (const r of ['dxgraph-a', 'dxgraph-b']) assert.equal(lb.depends_on?.[r]?.condition, 'service_healthy');
    const mount = (lb.volumes ?? []).find((v) => v.endsWith(':/etc/nginx/nginx.conf:ro'))!;
    const conf = readFileSync(join(PROJECT_ROOT, mount.split(':')[0]!), 'utf8');
    for (const r of ['dxgraph-a', 'dxgraph-b']) assert.match(conf, new RegExp(`server ${r}:8080`));
    assert.match(conf, /access_log off/, 'no URLs or bodies logged by the balancer');
  });

  it('points dxgraph at the neo4j service over Bolt with the same credentials', () => {
    assert.equal(dx.environment?.NEO4J_URI, 'bolt://neo4j:7687');
    assert.match(dx.environment?.NEO4J_PASSWORD ?? '', /NEO4J_PASSWORD/);
    assert.equal(String(dx.environment?.HOST), '0.0.0.0');
  });

  it('builds dxgraph from the Dockerfile and runs real CLI commands', () => {
    assert.equal(dx.build, '.');
    assert.ok(existsSync(join(PROJECT_ROOT, 'Dockerfile')));
    assert.equal(job.build, '.');
    const cmd = [job, dx].map((s) => (Array.isArray(s.command) ? s.command.join(' ') : String(s.command))).join(' ');
    for (const sub of ['build', 'serve']) {
      assert.match(cmd, new RegExp(`bin/dxgraph\\.js ${sub}\\b`));
      assert.ok(existsSync(join(PROJECT_ROOT, 'src', 'cli', `${sub}-command.ts`)), `${sub} command exists`);
    }
  });

  it('its nginx config is what the replicas story runs: only the service names, the port and the temp paths differ', () => {
    const shipped = readFileSync(join(PROJECT_ROOT, 'deploy', 'nginx.conf'), 'utf8');
    const local = composeNginxConf(shipped, { a: 'http://127.0.0.1:4001', b: 'http://127.0.0.1:4002' }, 4000, '/tmp/x');
    assert.match(local, /server 127\.0\.0\.1:4001 max_fails=1/);
    assert.match(local, /server 127\.0\.0\.1:4002 max_fails=1/);
    assert.match(local, /listen 127\.0\.0\.1:4000;/);
    assert.match(local, /proxy_temp_path \/tmp\/x\/proxy;/);
    const strip = (c: string) => c.split('\n').filter((l) => !/server |listen |_temp_path /.test(l)).join('\n');
    assert.equal(strip(local), strip(shipped));
    assert.throws(() => composeNginxConf(shipped.replace('dxgraph-b:8080', 'dxgraph-c:8080'), { a: 'http://h:1', b: 'http://h:2' }, 1, '/t'), /no server dxgraph-b:8080 to replace/);
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/neo4j-launcher/layout.js';

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

const compose = parse(readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

describe('docker-compose.yml', () => {
  const neo4j = compose.services.neo4j!;
  const dx = compose.services.dxgraph!;

  it('has a Neo4j 5 Community service and the dxgraph service', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['dxgraph', 'neo4j']);
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
    assert.equal(dx.depends_on?.neo4j?.condition, 'service_healthy');
  });

  it('points dxgraph at the neo4j service over Bolt with the same credentials', () => {
    assert.equal(dx.environment?.NEO4J_URI, 'bolt://neo4j:7687');
    assert.match(dx.environment?.NEO4J_PASSWORD ?? '', /NEO4J_PASSWORD/);
    assert.equal(String(dx.environment?.HOST), '0.0.0.0');
  });

  it('builds dxgraph from the Dockerfile and runs real CLI commands', () => {
    assert.equal(dx.build, '.');
    assert.ok(existsSync(join(PROJECT_ROOT, 'Dockerfile')));
    const cmd = Array.isArray(dx.command) ? dx.command.join(' ') : String(dx.command);
    for (const sub of ['build', 'serve']) {
      assert.match(cmd, new RegExp(`bin/dxgraph\\.js ${sub}\\b`));
      assert.ok(existsSync(join(PROJECT_ROOT, 'src', 'cli', `${sub}-command.ts`)), `${sub} command exists`);
    }
  });
});

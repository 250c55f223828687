import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ConfigError } from '../../src/errors.js';
import { pomXml } from '../../src/neo4j-launcher/assemble.js';
import { neo4jConf, portsFromConf } from '../../src/neo4j-launcher/config-writer.js';
import { freePort, isPortFree } from '../../src/neo4j-launcher/ports.js';
import { launcherSettings } from '../../src/neo4j-launcher/settings.js';
import { waitUntilUp, type Probe } from '../../src/neo4j-launcher/wait-bolt.js';

const settings = (env: NodeJS.ProcessEnv = {}) => launcherSettings({ env, home: '/tmp/h', instanceDir: '/tmp/h/i1' });

describe('neo4j launcher: settings and neo4j.conf', () => {
  it('defaults: loopback ports 7687/7474, auth off, 512m-1g heap, 512m page cache', () => {
    const conf = neo4jConf(settings());
    assert.match(conf, /^dbms\.security\.auth_enabled=false$/m);
    assert.match(conf, /^server\.bolt\.listen_address=127\.0\.0\.1:7687$/m);
    assert.match(conf, /^server\.http\.listen_address=127\.0\.0\.1:7474$/m);
    assert.match(conf, /^server\.https\.enabled=false$/m);
    assert.match(conf, /^server\.memory\.heap\.max_size=1g$/m);
    assert.match(conf, /^server\.memory\.pagecache\.size=512m$/m);
    assert.match(conf, /^server\.directories\.data=\/tmp\/h\/i1\/data$/m);
    assert.match(conf, /^dbms\.usage_report\.enabled=false$/m);
    // nothing listens beyond loopback
    for (const m of conf.matchAll(/listen_address=([^:\n]+)/g)) assert.equal(m[1], '127.0.0.1');
  });

  it('NEO4J_PASSWORD turns auth on; ports follow the env and read back from the conf', () => {
    const s = settings({ NEO4J_PASSWORD: 'longenough', NEO4J_BOLT_PORT: '7999', NEO4J_HTTP_PORT: '7998' });
    assert.deepEqual(s.auth, { user: 'neo4j', password: 'longenough' });
    const conf = neo4jConf(s);
    assert.match(conf, /^dbms\.security\.auth_enabled=true$/m);
    assert.deepEqual(portsFromConf(conf), { boltPort: 7999, httpPort: 7998 });
  });

  it('NEO4J_CONF_ADDITIONAL adds setting=value lines after ours', () => {
    const conf = neo4jConf(settings({ NEO4J_CONF_ADDITIONAL: ' dbms.cypher.statistics_divergence_threshold=1.0\n db.tx_log.preallocate=false ' }));
    const lines = conf.trim().split('\n');
    assert.deepEqual(lines.slice(-2), ['dbms.cypher.statistics_divergence_threshold=1.0', 'db.tx_log.preallocate=false']);
    assert.ok(lines.indexOf('dbms.usage_report.enabled=false') < lines.length - 2);
    assert.equal(neo4jConf(settings()).trim().split('\n').at(-1), 'dbms.usage_report.enabled=false', 'nothing added by default');
  });

  const bad: Array<[NodeJS.ProcessEnv, string]> = [
    [{ NEO4J_CONF_ADDITIONAL: 'db.tx_log.preallocate' }, 'NEO4J_CONF_ADDITIONAL'],
    [{ NEO4J_CONF_ADDITIONAL: 'a=b Bad.Key=1' }, 'NEO4J_CONF_ADDITIONAL'],
    [{ NEO4J_BOLT_PORT: 'x' }, 'NEO4J_BOLT_PORT'],
    [{ NEO4J_HTTP_PORT: '70000' }, 'NEO4J_HTTP_PORT'],
    [{ NEO4J_BOLT_PORT: '7000', NEO4J_HTTP_PORT: '7000' }, 'NEO4J_HTTP_PORT'],
    [{ NEO4J_PASSWORD: 'short' }, 'NEO4J_PASSWORD'],
    [{ NEO4J_PASSWORD: 'longenough', NEO4J_USER: 'alice' }, 'NEO4J_USER'],
    [{ NEO4J_HEAP_MAX: 'lots' }, 'NEO4J_HEAP_MAX'],
  ];
  for (const [env, name] of bad) {
    it(`rejects ${JSON.stringify(env)} naming ${name}`, () => {
      assert.throws(() => settings(env), (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${name}:`));
    });
  }

  it('the pom pulls the DBMS, the HTTP server and the Browser at the given versions', () => {
    const pom = pomXml({ neo4j: '5.26.99', browser: '5.24.9' });
    assert.match(pom, /<groupId>org\.neo4j<\/groupId><artifactId>neo4j<\/artifactId><version>5\.26\.99</);
    assert.match(pom, /<artifactId>neo4j-server<\/artifactId><version>5\.26\.99</);
    assert.match(pom, /<groupId>org\.neo4j\.client<\/groupId><artifactId>neo4j-browser<\/artifactId><version>5\.24\.9</);
  });
});

describe('neo4j launcher: waiting and ports', () => {
  const probes = (...seq: Probe[]) => {
    let i = 0;
    return async () => seq[Math.min(i++, seq.length - 1)]!;
  };
  const down: Probe = { up: false, reason: 'ECONNREFUSED', fatal: false };

  it('returns as soon as the probe answers', async () => {
    const r = await waitUntilUp({ probe: probes(down, down, { up: true }), isAlive: () => true, timeoutMs: 5000, intervalMs: 1 });
    assert.equal(r.ok, true);
  });

  it('stops at once when the process died, with the last reason', async () => {
    const r = await waitUntilUp({ probe: probes(down), isAlive: () => false, timeoutMs: 5000, intervalMs: 1 });
    assert.deepEqual(r, { ok: false, why: 'exited', reason: 'ECONNREFUSED' });
  });

  it('stops on a fatal answer (wrong credentials) and on the deadline', async () => {
    const fatal = await waitUntilUp({ probe: probes({ up: false, reason: 'unauthorized', fatal: true }), isAlive: () => true, timeoutMs: 5000 });
    assert.equal(fatal.ok === false && fatal.why, 'fatal');
    const late = await waitUntilUp({ probe: probes(down), isAlive: () => true, timeoutMs: 30, intervalMs: 5 });
    assert.equal(late.ok === false && late.why, 'timeout');
  });

  it('isPortFree sees a listening port as taken; freePort gives a bindable one', async () => {
    const port = await freePort();
    assert.equal(await isPortFree(port), true);
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(port, '127.0.0.1', r));
    try {
      assert.equal(await isPortFree(port), false);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
});

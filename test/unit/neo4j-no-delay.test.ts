import { strict as assert } from 'node:assert';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { boltPort, noDelayForPort } from '../../src/adapters/neo4j/no-delay.js';

/** Connects to `port` and resolves with the setNoDelay calls the client socket received. */
async function noDelayCalls(port: number): Promise<boolean[]> {
  const calls: boolean[] = [];
  // Runs after no-delay.ts's subscriber (subscribed earlier), before the socket connects.
  const spy = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    const real = socket.setNoDelay.bind(socket);
    socket.setNoDelay = (on?: boolean) => (calls.push(on ?? true), real(on));
  };
  subscribe('net.client.socket', spy);
  try {
    await new Promise<void>((resolve, reject) => {
      const c = connect(port, '127.0.0.1', () => setImmediate(() => (c.destroy(), resolve())));
      c.on('error', reject);
    });
  } finally {
    unsubscribe('net.client.socket', spy);
  }
  return calls;
}

describe('neo4j adapter: TCP_NODELAY on Bolt sockets', () => {
  const servers: Server[] = [];
  const listen = async (): Promise<number> => {
    const s = createServer((c) => c.end());
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return (s.address() as AddressInfo).port;
  };
  after(() => servers.forEach((s) => s.close()));

  it('reads the port of a Bolt URI (7687 when none is named)', () => {
    assert.equal(boltPort('bolt://127.0.0.1:34163'), 34163);
    assert.equal(boltPort('neo4j://neo4j'), 7687);
    assert.equal(boltPort('bolt+s://user@db.example.org:7688'), 7688);
    assert.equal(boltPort('neo4j://[::1]:7690'), 7690);
    assert.equal(boltPort('not a uri'), null);
  });

  it('sets TCP_NODELAY on sockets to a registered port, and only those', async () => {
    const bolt = await listen();
    const other = await listen();
    noDelayForPort(bolt);
    assert.deepEqual(await noDelayCalls(bolt), [true]);
    assert.deepEqual(await noDelayCalls(other), []);
  });
});

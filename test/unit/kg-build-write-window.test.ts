import assert from 'node:assert/strict';
import { WriteWindow } from '../../kg-build/write-window.js';

/** A write that finishes when the test says so. */
function gate() {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
  return { done, open, fail };
}

describe('kg-build write-window: writes in flight', () => {
  it('never has more than `limit` writes running, and drain() waits for all of them', async () => {
    const w = new WriteWindow(2);
    let running = 0;
    let peak = 0;
    const finished: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const submits = gates.map((g, i) => w.submit(async () => {
      running++;
      peak = Math.max(peak, running);
      await g.done;
      running--;
      finished.push(i);
    }));
    await Promise.all(submits.slice(0, 2)); // two start at once
    let third = false;
    void submits[2]!.then(() => (third = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(third, false, 'a third write waits for a free slot');
    gates[1]!.open();
    await submits[2];
    gates[0]!.open();
    gates[2]!.open();
    await submits[3];
    gates[3]!.open();
    await w.drain();
    assert.equal(peak, 2);
    assert.deepEqual([...finished].sort(), [0, 1, 2, 3]);
  });

  it('stops taking writes after a failure; drain() lets the others finish, then throws that failure', async () => {
    const w = new WriteWindow(2);
    const slow = gate();
    let slowDone = false;
    await w.submit(async () => {
      await slow.done;
      slowDone = true;
    });
    await w.submit(async () => {
      throw new Error('batch 2 failed');
    });
    await assert.rejects(w.submit(async () => assert.fail('must not run after a failure')), /batch 2 failed/);
    const drained = w.drain();
    slow.open();
    await assert.rejects(drained, /batch 2 failed/);
    assert.equal(slowDone, true, 'the write in flight was waited for');
  });

  it('refuses a limit that is not a positive integer', () => {
    assert.throws(() => new WriteWindow(0), RangeError);
    assert.throws(() => new WriteWindow(1.5), RangeError);
  });
});

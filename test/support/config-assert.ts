import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';

/** A bad variable must fail at start-up with a one-line ConfigError that names it. */
export function assertConfigRejects(env: NodeJS.ProcessEnv, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError, `expected ConfigError, got ${String(e)}`);
      assert.ok(e.message.startsWith(`${variable}:`), e.message);
      assert.ok(!e.message.includes('\n'), 'one line');
      return true;
    },
  );
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('POSTSHOT_SIGNUP is open by default, accepts closed, and refuses anything else by name', () => {
  assert.equal(loadConfig({}).signup, 'open');
  assert.equal(loadConfig({ POSTSHOT_SIGNUP: 'closed' }).signup, 'closed');
  assert.throws(
    () => loadConfig({ POSTSHOT_SIGNUP: 'Closed' }),
    (err: unknown) => err instanceof ConfigError && err.variable === 'POSTSHOT_SIGNUP',
  );
});

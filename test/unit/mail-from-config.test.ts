import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('POSTSHOT_MAIL_FROM takes an address, bare or named, and refuses anything else by name', () => {
  assert.equal(loadConfig({}).mailFrom, 'postshot@localhost');
  for (const from of ['quota@postshot.test', 'postshot <no-reply@example.com>', '"Post Shot" <a.b+c@mail.example.com>'])
    assert.equal(loadConfig({ POSTSHOT_MAIL_FROM: from }).mailFrom, from);
  for (const from of ['nobody', 'postshot', 'a@', '@example.com', 'a b@example.com', 'postshot <nobody>', 'x@y.com>'])
    assert.throws(
      () => loadConfig({ POSTSHOT_MAIL_FROM: from }),
      (err: unknown) =>
        err instanceof ConfigError && err.variable === 'POSTSHOT_MAIL_FROM' && err.message.includes(`"${from}"`),
      from,
    );
});

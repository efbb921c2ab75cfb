import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIGN_IN_RETRY_MS } from '../../src/account/sign-in.ts';
import { signInLink, waitForMail } from '../account-pages.ts';
import { freePort } from '../free-port.ts';
import { build } from '../helper.ts';
import { startSmtp } from '../smtp.ts';

// A sign-in link asked for while the mail server is down used to be dropped after one try, while
// the page said "Check your e-mail". It is tried again, and arrives once the server is back.

test('a sign-in link asked for while the mail server is down arrives once it is back', async (t) => {
  const port = await freePort();
  const h = await build(t, { env: { POSTSHOT_SMTP_URL: `smtp://127.0.0.1:${port}` } });
  const asked = await h.c.account.signIn.request('late@example.com', '192.0.2.1');
  assert.equal(asked.ok, true);
  // Nothing listens yet: the first try is refused. The server is up before the first retry.
  await new Promise((r) => setTimeout(r, SIGN_IN_RETRY_MS[0] / 2));
  const smtp = await startSmtp(port);
  t.after(() => smtp.close());
  const link = signInLink(await waitForMail(smtp, 'late@example.com', 1, SIGN_IN_RETRY_MS[0] * 3));
  const used = await h.c.account.signIn.verify(new URL(link).searchParams.get('token'));
  assert.equal(used.ok && used.account.email, 'late@example.com', 'the late link signs in');
  assert.equal(smtp.received.length, 1, 'sent once');
});

test('a link still being retried does not hold up the stop', async (t) => {
  const port = await freePort();
  const h = await build(t, { env: { POSTSHOT_SMTP_URL: `smtp://127.0.0.1:${port}` } });
  assert.equal((await h.c.account.signIn.request('never@example.com', '192.0.2.1')).ok, true);
  await new Promise((r) => setTimeout(r, 300));
  const started = performance.now();
  await h.c.close();
  const ms = performance.now() - started;
  assert.ok(ms < SIGN_IN_RETRY_MS[0], `stopped after ${Math.round(ms)} ms`);
});

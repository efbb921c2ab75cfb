import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getOn, startHttp2 } from '../http2-session.ts';

// Over TLS, clients speak HTTP/2 and keep their session open between requests. Shutting down
// must end those sessions the graceful way (GOAWAY: running requests finish, new ones go to
// another instance), or close waits on them and serve's shutdown times out with exit code 1.
const SLOW_POST = '1900000000000000007';
// Well under the 72 s after which an idle session would be ended anyway.
const SESSION_END_WAIT_MS = 30_000;

test('closing ends open HTTP/2 sessions gracefully: the running request is answered', async (t) => {
  const { h, client, apiKey, accountId } = await startHttp2(t);
  const ended = new Promise<'ended'>((resolve) => client.once('close', () => resolve('ended')));
  assert.equal((await getOn(client, '/api/v1/usage', { 'x-api-key': apiKey })).status, 200);

  h.upstream.setFault(SLOW_POST, { delayMs: 600 }, '*');
  const running = getOn(client, `/api/v1/content/${SLOW_POST}`, { 'x-api-key': apiKey });
  while (h.upstream.count('fxtwitter', SLOW_POST) === 0) await new Promise((r) => setTimeout(r, 20));
  const closed = h.app.close();

  const answer = await running;
  assert.equal(answer.status, 200);
  assert.match(answer.body, /x\.com\/.+\/status\/1900000000000000007/);
  const outcome = await Promise.race([
    ended,
    new Promise<'still open'>((r) => setTimeout(() => r('still open'), SESSION_END_WAIT_MS).unref()),
  ]);
  assert.equal(outcome, 'ended', 'the server ended the session once its request was answered');
  await closed;
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => [r.endpoint, r.status]),
    [['content', 'committed']],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAnswer, startHttp2 } from '../http2-session.ts';

// A request must be received whole within 60 s. Node holds HTTP/1.1 to it (408), but not
// HTTP/2: a body trickled a byte at a time kept its stream, and whatever it held, open for as
// long as the client liked. Over HTTP/2 the same request is refused the same way.

test('an HTTP/2 body not received within 60 s is refused with 408, uncharged', async (t) => {
  const { h, client, apiKey, accountId } = await startHttp2(t);

  const req = client.request({
    ':method': 'POST',
    ':path': '/api/v1/content/tweets',
    'x-api-key': apiKey,
    'content-type': 'application/json',
  });
  const body = JSON.stringify({ tweetIds: ['1900000000000000001'] });
  let sent = 0;
  // A byte every 5 s: never idle long enough for any idle timeout to end it.
  const trickle = setInterval(() => {
    if (sent < body.length - 1 && !req.closed) req.write(body[sent++]);
  }, 5000);
  t.after(() => clearInterval(trickle));
  const answer = await readAnswer(req);
  assert.equal(answer.status, 408);
  const problem = JSON.parse(answer.body);
  assert.equal(problem.code, 'request_timeout');
  assert.ok(sent < body.length - 1, 'refused while the body was still coming');
  assert.equal((await h.c.accounts.ledger(accountId)).length, 0, 'nothing charged');
});

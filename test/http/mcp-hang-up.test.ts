import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build } from '../helper.ts';

// An MCP tool call is made as an in-process REST request. A client that hangs up before the
// tool's answer must not be charged for it, as it would not be on the REST endpoint itself.
const SLOW_POST = '1900000000000000007';

const until = async (what: () => boolean) => {
  while (!what()) await new Promise((r) => setTimeout(r, 10));
};

test('an MCP client that hangs up before the tool answers is not charged', async (t) => {
  const h = await build(t);
  const { apiKey, accountId } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  h.upstream.setFault(SLOW_POST, { delayMs: 800 }, '*');

  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'screenshot_post', arguments: { tweetId: SLOW_POST, format: 'png' } },
  };
  const req = http.request({
    host: '127.0.0.1',
    port,
    agent: false,
    method: 'POST',
    path: '/mcp',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  req.on('error', () => {});
  req.end(JSON.stringify(call));
  await until(() => h.upstream.count('fxtwitter', SLOW_POST) > 0);
  req.destroy();

  await until(() => h.c.inFlight.size === 0);
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => [r.endpoint, r.status]),
    [['screenshot', 'refunded']],
  );
  const usage = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
  assert.equal(usage.json().used, 0);
});

// The MCP endpoint, driven by the official SDK client over Streamable HTTP and over stdio
// (`postshot mcp`): tools list, each tool runs, credits and refusals are the REST ones.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import sharp from 'sharp';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_DIR } from '../fixtures.ts';
import { freePort } from '../free-port.ts';
import { build, type Harness } from '../helper.ts';

const TEXT_POST = '1900000000000000001';
const MISSING_POST = '1234567';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };
const TOOL_NAMES = ['get_post_markdown', 'get_posts_markdown', 'get_usage', 'screenshot_post'];

async function listening(t: TestContext, env: Record<string, string> = NO_RATE): Promise<Harness & { url: string }> {
  const h = await build(t, { env });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  return Object.assign(h, { url: `http://127.0.0.1:${port}` });
}

async function httpClient(t: TestContext, url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'postshot-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  t.after(() => client.close());
  return client;
}

async function stdioClient(t: TestContext, url: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'postshot-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO_DIR, 'bin', 'postshot.js'), 'mcp', '--url', url, '--api-key', apiKey],
    cwd: REPO_DIR,
    stderr: 'pipe',
  });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

async function remaining(h: Harness, apiKey: string): Promise<number> {
  const res = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
  return res.json().remaining;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** As `printf '…' | postshot mcp …`: every message is written and stdin ends at once. */
async function pipeToForwarder(url: string, apiKey: string, messages: unknown[]) {
  const child = spawn(process.execPath, [
    path.join(REPO_DIR, 'bin', 'postshot.js'),
    'mcp',
    '--url',
    url,
    '--api-key',
    apiKey,
  ]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  const status = await new Promise((resolve) => child.on('close', resolve));
  return { status, stdout, stderr };
}

const INITIALIZE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return (first as { text: string }).text;
}

/** The REST problem the tool error carries; its text starts with the code. */
function problemOf(result: CallToolResult): { code: string; status: number; detail: string; message?: string } {
  assert.equal(result.isError, true, `expected a tool error, got ${JSON.stringify(result).slice(0, 300)}`);
  const problem = result._meta?.['postshot/problem'] as {
    code: string;
    status: number;
    detail: string;
    message?: string;
  };
  assert.ok(text(result).startsWith(`${problem.code} (HTTP ${problem.status}): ${problem.detail}`));
  return problem;
}

test('MCP over Streamable HTTP: tools listed with schemas, each tool runs, credits move as over REST', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('pro');
  const client = await httpClient(t, h.url, { 'X-API-KEY': apiKey });

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), TOOL_NAMES);
  for (const tool of tools) {
    assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      assert.ok((schema as { description?: string }).description, `${tool.name}.${name} has a description`);
    }
  }
  const shot = tools.find((x) => x.name === 'screenshot_post')!;
  assert.deepEqual(shot.inputSchema.required, ['tweetId']);
  assert.deepEqual((shot.inputSchema.properties!.format as { enum: string[] }).enum, [
    'svg',
    'png',
    'html',
    'jpeg',
    'webp',
  ]);
  // Every render option of the one options schema is a tool argument.
  for (const name of ['aspectRatio', 'width', 'containerBackground', 'showStats', 'timeZoneOffset', 'quality'])
    assert.ok(shot.inputSchema.properties![name], `screenshot_post takes ${name}`);

  // The same operation over REST and over MCP: same text, one credit each.
  const start = await remaining(h, apiKey);
  const rest = await h.app.inject({
    url: `/api/v1/content/${TEXT_POST}?includeStats=false`,
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(rest.statusCode, 200);
  const md = await call(client, 'get_post_markdown', { tweetId: TEXT_POST, includeStats: false });
  assert.equal(text(md), rest.body);
  assert.deepEqual(md._meta?.['postshot/quota'], { remaining: start - 2, limit: 300 });
  assert.equal(await remaining(h, apiKey), start - 2);

  // A post URL works as the id, as over REST.
  const byUrl = await call(client, 'get_post_markdown', {
    tweetId: `https://x.com/postshot_samples/status/${TEXT_POST}`,
  });
  assert.match(text(byUrl), /Shipping day/);

  const bulk = await call(client, 'get_posts_markdown', { tweetIds: [TEXT_POST, MISSING_POST, TEXT_POST] });
  const body = bulk.structuredContent as {
    total: number;
    successful: number;
    results: Array<{ success: boolean; error?: { code: string } }>;
  };
  assert.deepEqual([body.total, body.successful], [3, 2]);
  assert.equal(body.results[1].error?.code, 'post_not_found');
  assert.deepEqual(JSON.parse(text(bulk)), body);
  // One distinct post delivered: one credit.
  assert.equal(await remaining(h, apiKey), start - 4);

  const png = await call(client, 'screenshot_post', { tweetId: TEXT_POST, format: 'png', theme: 'dark' });
  const image = png.content[0] as { type: string; data: string; mimeType: string };
  assert.deepEqual([image.type, image.mimeType], ['image', 'image/png']);
  assert.deepEqual([...Buffer.from(image.data, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const restPng = await h.app.inject({
    url: `/api/v1/screenshot/${TEXT_POST}?format=png&theme=dark`,
    headers: { 'x-api-key': apiKey },
  });
  assert.ok(Buffer.from(image.data, 'base64').equals(restPng.rawPayload), 'the same bytes as over REST');

  const svg = await call(client, 'screenshot_post', { tweetId: TEXT_POST });
  assert.match(text(svg), /^<svg /);
  const html = await call(client, 'screenshot_post', { tweetId: TEXT_POST, format: 'html' });
  assert.match(text(html), /^<!DOCTYPE html>/i);
  // Render options pass as typed arguments: a 4:5 WebP at 400 px without stats.
  const webp = await call(client, 'screenshot_post', {
    tweetId: TEXT_POST,
    format: 'webp',
    aspectRatio: '4:5',
    width: 400,
    showStats: false,
    scale: 1,
  });
  const webpImage = webp.content[0] as { type: string; data: string; mimeType: string };
  assert.deepEqual([webpImage.type, webpImage.mimeType], ['image', 'image/webp']);
  const meta = await sharp(Buffer.from(webpImage.data, 'base64')).metadata();
  assert.deepEqual([meta.width, meta.height], [432, 540]);

  const hosted = await call(client, 'screenshot_post', { tweetId: TEXT_POST, format: 'png', returnType: 'url' });
  const stored = hosted.structuredContent as { url: string; format: string; tweetId: string };
  assert.deepEqual([stored.format, stored.tweetId], ['png', TEXT_POST]);
  const served = await h.app.inject({ url: new URL(stored.url).pathname });
  assert.equal(served.headers['content-type'], 'image/png');

  // png(MCP) + png(REST) + svg + html + webp + url: six credits.
  assert.equal(await remaining(h, apiKey), start - 10);
  const usage = await call(client, 'get_usage');
  assert.deepEqual(
    [(usage.structuredContent as { remaining: number }).remaining, (usage.structuredContent as { plan: string }).plan],
    [start - 10, 'pro'],
  );
  assert.deepEqual(usage._meta?.['postshot/quota'], { remaining: start - 10, limit: start }, 'its _meta has the quota');
  assert.equal(await remaining(h, apiKey), start - 10, 'get_usage is free');
});

test('MCP over HTTP: the answer carries the quota and rate-limit headers of the REST request; Bearer keys work', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('free');
  const post = (body: unknown, auth: Record<string, string>) =>
    fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
      body: JSON.stringify(body),
    });
  const res = await post(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_post_markdown', arguments: { tweetId: TEXT_POST } },
    },
    { authorization: `Bearer ${apiKey}` },
  );
  assert.equal(res.status, 200);
  assert.deepEqual([res.headers.get('x-quota-remaining'), res.headers.get('x-quota-limit')], ['49', '50']);
  assert.ok(res.headers.get('ratelimit-limit'));
  const json = await res.json();
  assert.match(json.result.content[0].text, /Shipping day/);

  // Listing the tools is free and needs no key; GET (no sessions) is refused as problem+json.
  const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, {});
  assert.equal((await list.json()).result.tools.length, 4);
  const get = await fetch(`${h.url}/mcp`, { headers: { accept: 'text/event-stream' } });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  assert.equal((await get.json()).code, 'method_not_allowed');
});

test('MCP refusals: bad key, exhausted quota, missing post, bad arguments, rate limit: tool errors with the REST codes and messages', async (t) => {
  const h = await listening(t, { POSTSHOT_RATE_LIMITS: 'free=8,pro=100000,pro_plus=100000,business=100000' });
  const { apiKey, accountId } = await h.account('free');

  const malformed = await httpClient(t, h.url, { 'X-API-KEY': 'psk_not-a-key' });
  const bad = problemOf(await call(malformed, 'screenshot_post', { tweetId: TEXT_POST }));
  const restBad = await h.app.inject({
    url: `/api/v1/screenshot/${TEXT_POST}`,
    headers: { 'x-api-key': 'psk_not-a-key' },
  });
  assert.deepEqual([bad.code, bad.status, bad.detail], ['invalid_api_key', 401, restBad.json().detail]);
  // The auth matrix per endpoint holds: content answers 403 for the same key.
  assert.deepEqual([problemOf(await call(malformed, 'get_post_markdown', { tweetId: TEXT_POST })).status], [403]);
  const none = await httpClient(t, h.url, {});
  const extra = problemOf(await call(none, 'get_usage', { extra: 1 }));
  assert.deepEqual(
    [extra.code, extra.detail],
    ['invalid_parameter', 'Unknown argument "extra" for get_usage; it takes none.'],
  );
  const typo = problemOf(await call(none, 'get_post_markdown', { tweetId: TEXT_POST, includestats: false }));
  assert.match(typo.detail, /^Unknown argument "includestats" for get_post_markdown; it takes tweetId, includeStats/);
  const noKey = problemOf(await call(none, 'get_usage'));
  assert.equal(noKey.code, 'missing_api_key');
  assert.match(noKey.detail, /X-API-KEY.*Authorization: Bearer/, 'both ways /mcp takes a key');
  assert.equal(noKey.message, noKey.detail, 'message repeats detail, as on every problem');

  const client = await httpClient(t, h.url, { 'X-API-KEY': apiKey });
  const missing = problemOf(await call(client, 'get_post_markdown', { tweetId: MISSING_POST }));
  assert.deepEqual([missing.code, missing.status], ['post_not_found', 404]);
  const invalid = problemOf(await call(client, 'screenshot_post', { tweetId: TEXT_POST, format: 'gif' }));
  assert.equal(invalid.code, 'invalid_parameter');
  assert.match(invalid.detail, /svg, png, html/);
  const noId = problemOf(await call(client, 'get_post_markdown', {}));
  assert.equal(noId.code, 'invalid_parameter');
  const tooMany = problemOf(
    await call(client, 'get_posts_markdown', { tweetIds: Array.from({ length: 101 }, () => TEXT_POST) }),
  );
  assert.deepEqual([tooMany.code, tooMany.status], ['too_many_ids', 400]);
  const badId = problemOf(await call(client, 'screenshot_post', { tweetId: '../usage?x=' }));
  assert.deepEqual([badId.code, badId.status], ['invalid_post_id', 400]);
  const unknownOption = problemOf(
    await call(client, 'get_post_markdown', { tweetId: TEXT_POST, includeStats: 'maybe' }),
  );
  assert.equal(unknownOption.code, 'invalid_parameter');
  const restricted = problemOf(await call(client, 'screenshot_post', { tweetId: TEXT_POST, returnType: 'url' }));
  assert.equal(restricted.code, 'plan_restricted');
  assert.equal(await remaining(h, apiKey), 50, 'refusals cost nothing');

  const account = (await h.c.accounts.getAccount(accountId))!;
  assert.ok((await h.c.quota.charge(account, 50, { requestId: 'test', endpoint: 'test' })).ok);
  const exhausted = await call(client, 'get_post_markdown', { tweetId: TEXT_POST });
  assert.deepEqual([problemOf(exhausted).code, problemOf(exhausted).status], ['quota_exceeded', 403]);
  assert.deepEqual(exhausted._meta?.['postshot/quota'], { remaining: 0, limit: 50 });

  // Each tool call is one request against the key's rate limit: eight per minute here, eight made
  // above (seven tool calls that reached REST, one usage request).
  const limited = problemOf(await call(client, 'get_usage'));
  assert.deepEqual([limited.code, limited.status], ['rate_limited', 429]);
});

test('postshot mcp: the stdio forwarder lists and runs the tools of a running service', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('pro');
  const client = await stdioClient(t, h.url, apiKey);
  assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), TOOL_NAMES);
  const start = await remaining(h, apiKey);
  assert.match(text(await call(client, 'get_post_markdown', { tweetId: TEXT_POST })), /Shipping day/);
  const png = await call(client, 'screenshot_post', { tweetId: TEXT_POST, format: 'png' });
  assert.equal((png.content[0] as { mimeType: string }).mimeType, 'image/png');
  const usage = (await call(client, 'get_usage')).structuredContent as { remaining: number };
  assert.equal(usage.remaining, start - 2);
  assert.equal(problemOf(await call(client, 'get_post_markdown', { tweetId: MISSING_POST })).code, 'post_not_found');

  const wrong = await stdioClient(t, h.url, 'psk_not-a-key');
  assert.equal(problemOf(await call(wrong, 'get_usage')).code, 'invalid_api_key');

  // A service that cannot be reached: the client gets a JSON-RPC error naming it, not a hang.
  await assert.rejects(stdioClient(t, 'http://127.0.0.1:1', apiKey), /could not be reached/);
  // Its stderr says why, not only fetch's "fetch failed" (a port nothing listens on).
  const forwarder = spawn(
    process.execPath,
    [path.join(REPO_DIR, 'bin', 'postshot.js'), 'mcp', '--url', `http://127.0.0.1:${await freePort()}`],
    {
      cwd: REPO_DIR,
      env: { ...process.env, POSTSHOT_API_KEY: apiKey },
    },
  );
  let stderr = '';
  forwarder.stderr.on('data', (d) => (stderr += d));
  forwarder.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  await once(forwarder, 'exit');
  assert.match(stderr, /fetch failed \(ECONNREFUSED\)/);
  assert.doesNotMatch(stderr, /fetch failed$/m, 'no line without its reason');
  // One line per failed request, naming the service.
  assert.match(stderr, /^postshot mcp: http:\/\/127\.0\.0\.1:\d+: fetch failed \(ECONNREFUSED\)\n$/);
});

test('postshot mcp: requests written before stdin closes are still answered', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('pro');
  const get = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_usage', arguments: {} } };
  const run = await pipeToForwarder(h.url, apiKey, [...INITIALIZE, get]);
  assert.equal(run.status, 0, run.stderr);
  // Both requests are in flight at once, so their answers may come in either order: a client
  // matches them by id (JSON-RPC), and so does this test.
  const answers = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .sort((a, b) => a.id - b.id);
  assert.deepEqual(
    answers.map((a) => [a.id, a.error?.message]),
    [
      [1, undefined],
      [2, undefined],
    ],
  );
  assert.equal(answers[1].result.structuredContent.remaining, 300);
});

test('postshot mcp: a session that ends right after initializing leaves stderr empty', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('pro');
  // After `initialized` the client transport probes for a GET event stream; stdin ending at once
  // closes the forwarder while that probe is in flight. Stopping is not an error to report.
  for (let run = 0; run < 3; run++) {
    const { status, stdout, stderr } = await pipeToForwarder(h.url, apiKey, INITIALIZE);
    assert.equal(status, 0, stderr);
    assert.equal(JSON.parse(stdout.trim()).id, 1);
    assert.equal(stderr, '', `run ${run}`);
  }
});

test('hostile MCP bodies get JSON-RPC or tool errors, never a 5xx, and cost nothing', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('free');
  const call = (params: unknown, method = 'tools/call') =>
    fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': apiKey,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
  const cases: unknown[] = [
    { name: 'screenshot_post', arguments: { tweetId: { $gt: '' } } },
    { name: 'screenshot_post', arguments: 'tweetId=20' },
    { name: 'get_posts_markdown', arguments: { tweetIds: [20, null] } },
    { name: 'get_posts_markdown', arguments: { tweetIds: 'x'.repeat(5000) } },
    { name: 'get_post_markdown', arguments: { tweetId: `20?includeStats=false#` } },
    { name: 'get_post_markdown', arguments: { tweetId: 'x'.repeat(5000) } },
    { name: 'get_post_markdown', arguments: { tweetId: '20', __proto__: { polluted: true }, constructor: 1 } },
    { name: 'screenshot_post', arguments: { tweetId: '20', format: ['png', 'svg'] } },
    { name: 'get_usage', arguments: { extra: 1 } },
    { name: 42 },
    { name: 'rm -rf', arguments: {} },
    null,
  ];
  for (const params of cases) {
    const res = await call(params);
    assert.ok(res.status < 500, `${JSON.stringify(params).slice(0, 80)}: ${res.status}`);
    const body = await res.json();
    // A JSON-RPC error, a tool error, or (not a JSON-RPC message at all) a 400 problem.
    const refused = body.error !== undefined || body.result?.isError === true || body.code === 'invalid_body';
    assert.ok(refused, `${JSON.stringify(params).slice(0, 80)} was refused: ${JSON.stringify(body).slice(0, 200)}`);
  }
  // Params that do not fit the method are the caller's mistake: -32602, never -32603 Internal error.
  for (const [method, params] of [
    ['tools/call', { name: 'get_usage', arguments: null }],
    ['tools/call', { name: 'get_usage', arguments: [] }],
    ['tools/call', { arguments: {} }],
    ['initialize', { protocolVersion: '2025-06-18', capabilities: null, clientInfo: null }],
    ['initialize', {}],
  ] as const) {
    const res = await call(params, method);
    const body = await res.json();
    assert.equal(
      body.error?.code,
      -32602,
      `${method} ${JSON.stringify(params)}: ${JSON.stringify(body).slice(0, 200)}`,
    );
    assert.equal(body.id, 7);
  }
  const unknown = await call({}, 'resources/read');
  assert.ok(unknown.status < 500);
  assert.equal((await unknown.json()).error.code, -32601);
  assert.equal(await remaining(h, apiKey), 50);
});

test('a lone surrogate in a tool argument is refused as over REST, uncharged, never an internal error', async (t) => {
  const h = await listening(t);
  const { apiKey } = await h.account('pro');
  const client = await httpClient(t, h.url, { 'X-API-KEY': apiKey });
  const start = await remaining(h, apiKey);
  // A lone surrogate has no UTF-8 form: it reaches REST as U+FFFD, as URLSearchParams sends it.
  for (const tweetId of ['\ud800', 'https://x.com/a\ud800/status/1', `${TEXT_POST}\udc00`]) {
    const rest = await h.app.inject({
      url: `/api/v1/content/${encodeURIComponent(tweetId.replace(/\p{Surrogate}/gu, '\ufffd'))}`,
      headers: { 'x-api-key': apiKey },
    });
    for (const tool of ['get_post_markdown', 'screenshot_post']) {
      const refused = problemOf(await call(client, tool, { tweetId }));
      assert.deepEqual([refused.code, refused.status], ['invalid_post_id', 400], `${tool} ${JSON.stringify(tweetId)}`);
      assert.equal(refused.detail, rest.json().detail);
    }
  }
  const option = problemOf(await call(client, 'screenshot_post', { tweetId: TEXT_POST, theme: 'dark\ud800' }));
  assert.equal(option.code, 'invalid_parameter');
  const bulk = await call(client, 'get_posts_markdown', { tweetIds: ['\ud800', 'https://x.com/a\ud800/status/1'] });
  const results = (bulk.structuredContent as { results: Array<{ error?: { code: string } }> }).results;
  assert.deepEqual(
    results.map((r) => r.error?.code),
    ['invalid_post_id', 'invalid_post_id'],
  );
  assert.equal(await remaining(h, apiKey), start, 'refusals cost nothing');
});

test('a body that is no JSON-RPC 2.0 message is a 400 saying what is accepted', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const post = (body: unknown) =>
    h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify(body),
    });
  for (const [body, detail] of [
    [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }, '"jsonrpc" must be "2.0".'],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }, '"id" must be string or integer.'],
  ] as const) {
    const res = await post(body);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'invalid_body');
    assert.equal(res.json().detail, detail);
  }
});

// The OpenAPI document: valid OpenAPI 3.1, one operation per route the app serves and no other,
// and the answers of real requests are what it documents (status, media type, body, headers).
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { runCli } from '../../src/cli/index.ts';
import { build, makeTempDir } from '../helper.ts';

const TEXT_POST = '1900000000000000001';
const MISSING_POST = '1234567';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Doc = any;

/** Every route the app registers, seen by an onRoute hook added when Fastify creates the instance. */
interface SeenRoute {
  method: string;
  url: string;
  hidden: boolean;
  notAllowed: boolean;
}
function recordRoutes(): { routes: SeenRoute[]; stop(): void } {
  const routes: SeenRoute[] = [];
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route) => {
      // Read lazily: hooks of the route's own plugin may still mark it hidden after this one.
      for (const method of [route.method].flat())
        routes.push({
          method,
          url: route.url,
          get hidden() {
            return (route.schema as { hide?: boolean } | undefined)?.hide === true;
          },
          get notAllowed() {
            return (route.config as { methodNotAllowed?: boolean } | undefined)?.methodNotAllowed === true;
          },
        });
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  return { routes, stop: () => diagnostics.unsubscribe('fastify.initialization', onInit) };
}

/** The document's operation for a concrete request path; literal paths win over templated ones. */
function operationFor(doc: Doc, method: string, path: string): Doc {
  const templates = Object.keys(doc.paths).sort((a, b) => a.split('{').length - b.split('{').length);
  for (const template of templates) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = doc.paths[template][method.toLowerCase()];
    if (pattern.test(path) && op) return op;
  }
  throw new Error(`${method} ${path} is not in the document`);
}

/** Asserts that a real answer is one the document describes. */
function assertDocumented(doc: Doc, method: string, url: string, res: LightMyRequestResponse): void {
  const where = `${method} ${url} -> ${res.statusCode}`;
  const op = operationFor(doc, method, url.split('?')[0]);
  const documented = op.responses[String(res.statusCode)];
  assert.ok(documented, `${where}: status not documented (${Object.keys(op.responses).join(', ')})`);
  if (res.statusCode === 202 || res.statusCode === 304) return;
  const type = String(res.headers['content-type']).split(';')[0];
  const media = documented.content?.[type];
  assert.ok(media, `${where}: ${type} not documented (${Object.keys(documented.content ?? {}).join(', ')})`);
  if (type.endsWith('json')) {
    const check = Compile(media.schema);
    const body = res.json();
    assert.ok(check.Check(body), `${where}: body does not match: ${JSON.stringify([...check.Errors(body)][0])}`);
  }
  if (res.statusCode < 300) {
    for (const name of Object.keys(documented.headers ?? {})) {
      assert.ok(res.headers[name.toLowerCase()] !== undefined, `${where}: header ${name} missing`);
    }
  }
}

test('GET /openapi.json: a valid OpenAPI 3.1 document, version 0.9.1, with one operation per route served', async (t) => {
  const recorder = recordRoutes();
  const h = await build(t).finally(() => recorder.stop());
  const res = await h.app.inject('/openapi.json');
  assert.equal(res.statusCode, 200);
  const doc = res.json();
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '0.9.1');

  const result = await validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result));
  // The validator does refuse a broken document.
  const broken = structuredClone(doc);
  broken.paths['/api/v1/usage'].get.responses = 'none';
  assert.equal((await validate(broken)).valid, false);

  // Routes the app serves (HEAD mirrors GET; the reference page's own assets are not API operations).
  // Hidden on purpose: people's pages, the 405 answers, the id-less refusals and preflights.
  const hidden = recorder.routes.filter((r) => r.hidden && !r.url.startsWith('/docs'));
  for (const r of hidden) {
    const why =
      r.url.startsWith('/account') ||
      r.method === 'OPTIONS' ||
      r.method === 'HEAD' ||
      r.notAllowed ||
      ['/api/v1/screenshot', '/api/v1/content'].includes(r.url);
    assert.ok(why, `${r.method} ${r.url} is hidden from the document`);
  }
  const served = new Set(
    recorder.routes
      .filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/docs') && !r.hidden)
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{tweetId}')}`),
  );
  const described = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    ),
  );
  assert.ok(served.size >= 9, `saw ${served.size} routes`);
  assert.deepEqual([...served].sort(), [...described].sort());

  // Every operation is secured as the auth matrix says, and every parameter is described.
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops as Record<string, Doc>)) {
      assert.ok(op.operationId && op.summary && op.description, `${method} ${path} is described`);
      for (const p of op.parameters ?? []) assert.ok(p.description, `${method} ${path} ${p.name} is described`);
      if (path.startsWith('/api/')) assert.deepEqual(op.security, [{ apiKey: [] }], `${method} ${path}`);
    }
  }
  assert.deepEqual(doc.components.securitySchemes.apiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
    description: doc.components.securitySchemes.apiKey.description,
  });
  // Sign-up is open by default: a key also comes from the /account pages.
  assert.match(doc.components.securitySchemes.apiKey.description, /sign up at `\/account`/);
  for (const output of ['SVG', 'PNG', 'JPEG', 'WebP', 'HTML', 'Markdown'])
    assert.ok(doc.info.description.includes(output), `the description lists ${output}`);
  const shot = doc.paths['/api/v1/screenshot/{tweetId}'].get;
  const format = shot.parameters.find((p: Doc) => p.name === 'format');
  assert.deepEqual([format.schema.enum, format.schema.default], [['svg', 'png', 'html', 'jpeg', 'webp'], 'svg']);
  assert.deepEqual(shot.responses['403'].content['application/problem+json'].schema.properties.code.enum, [
    'quota_exceeded',
    'plan_restricted',
    'https_required',
  ]);
  assert.ok(shot.responses['200'].headers['X-Quota-Remaining']);
  const stats = doc.paths['/api/v1/content/{tweetId}'].get.parameters.find((p: Doc) => p.name === 'includeStats');
  assert.deepEqual(stats.schema, { type: 'boolean', default: true });
  assert.equal(
    doc.paths['/api/v1/content/tweets'].post.requestBody.content['application/json'].schema.properties.tweetIds
      .maxItems,
    100,
  );
});

test('real answers match the document: statuses, media types, JSON bodies, problem codes, headers', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const doc = (await h.app.inject('/openapi.json')).json();
  const pro = (await h.account('pro')).apiKey;
  const free = await h.account('free', 'free@example.com');
  const send = async (method: 'GET' | 'POST', url: string, key?: string, body?: unknown, type?: string) => {
    const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
    if (type) headers['content-type'] = type;
    const res = await h.app.inject({ method, url, headers, payload: body as string });
    assertDocumented(doc, method, url, res);
    return res;
  };
  const statuses: number[] = [];
  const check = async (...args: Parameters<typeof send>) => {
    const res = await send(...args);
    statuses.push(res.statusCode);
    return res;
  };
  await check('GET', '/healthz');
  await check('GET', '/readyz');
  await check('GET', '/openapi.json');
  await check('GET', '/api/v1/usage', pro);
  await check('GET', '/api/v1/usage');
  await check('GET', '/api/v1/usage', 'psk_bad');
  await check('GET', '/api/v1/usage?x=1', pro);
  await check('GET', `/api/v1/content/${TEXT_POST}`, pro);
  await check('GET', `/api/v1/content/${TEXT_POST}?includeStats=false&includeMedia=0`, pro);
  await check('GET', `/api/v1/content/${TEXT_POST}?includeStats=maybe`, pro);
  await check('GET', '/api/v1/content/abc', pro);
  await check('GET', `/api/v1/content/${MISSING_POST}`, pro);
  await check('GET', `/api/v1/content/${TEXT_POST}`, 'psk_bad');
  await check('POST', '/api/v1/content/tweets', pro, { tweetIds: [TEXT_POST, MISSING_POST, 'x'] });
  await check('POST', '/api/v1/content/tweets', pro, { tweetIds: Array.from({ length: 101 }, () => TEXT_POST) });
  await check('POST', '/api/v1/content/tweets', pro, { tweetIds: 'nope' });
  await check('POST', '/api/v1/content/tweets', pro, 'tweetIds', 'text/plain');
  for (const format of ['svg', 'png', 'html', 'jpeg', 'webp', 'PNG'])
    await check('GET', `/api/v1/screenshot/${TEXT_POST}?format=${format}`, pro);
  const hosted = await check('GET', `/api/v1/screenshot/${TEXT_POST}?returnType=url&format=png`, pro);
  const image = new URL(hosted.json().url).pathname;
  const etag = String((await check('GET', image)).headers.etag);
  // Conditional and ranged reads of a hosted image.
  for (const headers of [{ 'if-none-match': etag }, { range: 'bytes=0-9' }, { range: 'bytes=999999999-' }]) {
    const res = await h.app.inject({ url: image, headers });
    assertDocumented(doc, 'GET', image, res);
    statuses.push(res.statusCode);
  }
  await check('GET', '/images/nothing.png');
  await check('GET', `/api/v1/screenshot/${TEXT_POST}?returnType=url`, free.apiKey);
  await check('GET', `/api/v1/screenshot/${TEXT_POST}?format=gif`, pro);
  await check('GET', `/api/v1/screenshot/${MISSING_POST}`, pro);
  await check('GET', `/api/v1/screenshot/${TEXT_POST}`);
  const account = (await h.c.accounts.getAccount(free.accountId))!;
  await h.c.quota.charge(account, 50, { requestId: 'test', endpoint: 'test' });
  await check('GET', `/api/v1/screenshot/${TEXT_POST}`, free.apiKey);
  const mcp = await h.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'x-api-key': pro },
    payload: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_post_markdown', arguments: { tweetId: TEXT_POST } },
    },
  });
  assertDocumented(doc, 'POST', '/mcp', mcp);
  // MCP protocol refusals: not JSON-RPC at all, a bad JSON-RPC message, a client that cannot take SSE.
  for (const [accept, payload, status] of [
    ['application/json, text/event-stream', {}, 400],
    ['application/json, text/event-stream', { jsonrpc: '2.0', id: 1 }, 400],
    ['application/json', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 406],
  ] as const) {
    const res = await h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept, 'content-type': 'application/json' },
      payload,
    });
    assert.equal(res.statusCode, status, res.body);
    assertDocumented(doc, 'POST', '/mcp', res);
  }
  assert.deepEqual(
    [...new Set(statuses)].sort(),
    [200, 206, 304, 400, 401, 403, 404, 415, 416],
    'the sample covers successes and each kind of refusal',
  );
});

test('postshot openapi prints the document the service serves', async (t) => {
  const dataDir = makeTempDir();
  const env = {
    POSTSHOT_DATA_DIR: dataDir,
    POSTSHOT_LOG_LEVEL: 'silent',
    POSTSHOT_PUBLIC_URL: 'https://shots.example.com',
  };
  const out: string[] = [];
  const code = await runCli(['openapi'], env, { out: (l) => out.push(l), err: (l) => out.push(l) });
  assert.equal(code, 0);
  const printed = JSON.parse(out.join('\n'));
  const h = await build(t, { env: { POSTSHOT_PUBLIC_URL: 'https://shots.example.com' } });
  assert.deepEqual(printed, (await h.app.inject('/openapi.json')).json());
  assert.deepEqual(printed.servers, [
    { url: 'https://shots.example.com', description: printed.servers[0].description },
  ]);
});

test('the X-API-KEY scheme names /account for keys, as a sign-up page only while sign-up is open', async (t) => {
  const closed = await build(t, { env: { POSTSHOT_SIGNUP: 'closed' } });
  const description: string = (await closed.app.inject('/openapi.json')).json().components.securitySchemes.apiKey
    .description;
  assert.doesNotMatch(description, /sign up/i);
  assert.match(description, /`postshot accounts create`/);
  assert.match(description, /`\/account\/keys`/);
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { createAccountWithKey } from '../../src/auth/admin.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';

// Every failed upstream source is logged once at warn, with the source, the HTTP status or the
// system error code, and how long it took: an operator can tell why a caller got a 502 or 504.

// biome-ignore lint/suspicious/noExplicitAny: log lines are any JSON
type Line = Record<string, any>;

test('each failed upstream source is one warn line with source, status or error code, and duration', async (t) => {
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dataDir = makeTempDir();
  const lines: Line[] = [];
  const config = loadConfig({
    POSTSHOT_DATA_DIR: dataDir,
    POSTSHOT_LOG_LEVEL: 'warn',
    POSTSHOT_UPSTREAM_TIMEOUT_MS: '500',
    ...upstream.env,
    // Nothing listens on port 1: the connection is refused.
    POSTSHOT_SYNDICATION_URL: 'http://127.0.0.1:1/syndication',
  });
  const c = await createContainer(config, { logStream: { write: (s: string) => void lines.push(JSON.parse(s)) } });
  const app = await buildApp(c);
  t.after(async () => {
    await app.close();
    await c.close();
    await upstream.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const created = await createAccountWithKey(c.accounts, { email: 'log@example.com', plan: 'business' }, c.clock());
  assert.ok(created.ok);
  const headers = { 'x-api-key': created.value.apiKey };
  const failures = () => lines.filter((l) => l.msg === 'upstream source failed');

  const cases = [
    { id: '1900000000000050001', fault: { status: 503 }, status: 502, fx: { status: 503 } },
    { id: '1900000000000050002', body: { code: 200, tweet: { id: 5, text: 12345 } }, status: 502, fx: { status: 200 } },
    { id: '1900000000000050003', fault: { delayMs: 1500 }, status: 504, fx: { code: 'timeout' } },
  ];
  for (const k of cases) {
    lines.length = 0;
    if (k.fault) upstream.setFault(k.id, k.fault, 'fxtwitter');
    if (k.body) upstream.setBody('fxtwitter', k.id, k.body);
    const res = await app.inject({ method: 'GET', url: `/api/v1/content/${k.id}`, headers });
    assert.equal(res.statusCode, k.status, res.body);
    const logged = failures();
    assert.deepEqual(
      logged.map((l) => l.source),
      ['fxtwitter', 'syndication'],
      `one line per failed source: ${JSON.stringify(lines)}`,
    );
    const [fx, syn] = logged;
    for (const l of logged) {
      assert.equal(l.level, 40, 'warn');
      assert.equal(l.postId, k.id);
      assert.equal(typeof l.durationMs, 'number');
    }
    if (k.fx.status) assert.equal(fx.status, k.fx.status);
    if (k.fx.code) assert.equal(fx.code, k.fx.code);
    assert.ok(fx.durationMs >= (k.fault?.delayMs ? 450 : 0), `duration ${fx.durationMs}`);
    assert.equal(syn.code, 'ECONNREFUSED', JSON.stringify(syn));
    assert.match(syn.detail, /ECONNREFUSED/);
    if (k.body) assert.match(fx.detail, /does not fit at \/tweet\/id/, 'the failing path is named');
  }
});

test('a media fetch that fails is one warn line with its status, and the card still renders', async (t) => {
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dataDir = makeTempDir();
  const lines: Line[] = [];
  const config = loadConfig({ POSTSHOT_DATA_DIR: dataDir, POSTSHOT_LOG_LEVEL: 'warn', ...upstream.env });
  const c = await createContainer(config, { logStream: { write: (s: string) => void lines.push(JSON.parse(s)) } });
  const app = await buildApp(c);
  t.after(async () => {
    await app.close();
    await c.close();
    await upstream.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const created = await createAccountWithKey(c.accounts, { email: 'media@example.com', plan: 'business' }, c.clock());
  assert.ok(created.ok);
  upstream.setFault('PS1a', { status: 500 }, 'media');
  for (const format of ['svg', 'png']) {
    const res: { statusCode: number; body: string } = await app.inject({
      method: 'GET',
      url: `/api/v1/screenshot/1900000000000000018?format=${format}`,
      headers: { 'x-api-key': created.value.apiKey },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  const media = lines.filter((l) => l.msg === 'upstream media failed');
  assert.equal(media.length, 1, `once while the failure is cached: ${JSON.stringify(lines)}`);
  assert.equal(media[0].level, 40);
  assert.equal(media[0].source, 'media');
  assert.equal(media[0].status, 500);
  assert.match(media[0].url, /PS1a/);
  assert.equal(typeof media[0].durationMs, 'number');
});

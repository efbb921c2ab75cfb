import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleService } from '../../src/bundle.mjs';
import { freePort, waitUntilOk } from '../free-port.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');

test('the service starts from a plain-JavaScript bundle that finds files beside its sources', async () => {
  const url = await bundleService();
  assert.ok(url, 'the bundle is made');
  const file = fileURLToPath(url);
  assert.match(file, /node_modules\/\.cache\/postshot\/service-[0-9a-f]{16}\/main\.mjs$/);
  const code = fs
    .readdirSync(path.dirname(file))
    .map((f) => fs.readFileSync(path.join(path.dirname(file), f), 'utf8'))
    .join('\n');
  assert.ok(!/from ["']tsx/.test(code), 'the bundle does not load tsx');
  assert.match(code, /from ["']fastify["']/, 'packages stay external');
  // Paths relative to a source file (migrations) point into src/, not into the cache folder.
  assert.ok(code.includes(JSON.stringify(path.join(REPO, 'src', 'storage', 'accounts'))), 'import.meta.dirname kept');
  assert.equal((await bundleService())?.href, url.href, 'the same sources make the same file');
  // Run as the executable runs it.
  const run = spawnSync(process.execPath, [file, '--help'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Usage:/);
});

// Records every package the process resolves (module hooks run on a thread of their own).
const RECORD_PACKAGES = `
export async function resolve(specifier, context, next) {
  if (!/^(node:|file:|data:|\\.|\\/)/.test(specifier))
    (await import('node:fs')).appendFileSync(process.env.PACKAGES_LOG, specifier + '\\n');
  return next(specifier, context);
}`;

test('serving loads S3, PostgreSQL, Redis and the MCP SDK only when they are used', async (t) => {
  const url = await bundleService();
  assert.ok(url, 'the bundle is made');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-bundle-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'packages.log');
  const hook = path.join(dir, 'hook.mjs');
  fs.writeFileSync(hook, RECORD_PACKAGES);
  fs.writeFileSync(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', path.join(dir, 'register.mjs'), fileURLToPath(url), 'serve'], {
    env: {
      ...process.env,
      PACKAGES_LOG: log,
      PORT: String(port),
      HOST: '127.0.0.1',
      POSTSHOT_DATA_DIR: dir,
      POSTSHOT_LOG_LEVEL: 'warn',
      POSTSHOT_RENDER_WARMUP_MS: '0',
    },
    stdio: 'ignore',
  });
  t.after(() => child.kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  assert.ok(await waitUntilOk(`${base}/readyz`), 'the service answers');
  const loaded = () => new Set(fs.readFileSync(log, 'utf8').split('\n'));
  const atStart = loaded();
  assert.ok(atStart.has('fastify'), 'the log records the packages the service loads');
  for (const lazy of ['@aws-sdk/client-s3', 'pg', 'ioredis', '@modelcontextprotocol/sdk/server/index.js'])
    assert.ok(!atStart.has(lazy), `${lazy} is not loaded by a service that does not use it`);
  // The first MCP call loads the SDK from its own chunk and answers.
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  assert.match(body, /get_post_markdown/);
  assert.ok(loaded().has('@modelcontextprotocol/sdk/server/index.js'), 'the MCP SDK is loaded once used');
});

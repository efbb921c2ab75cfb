import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../helper.ts';
import { PG_URL } from '../scaled.ts';
import { logLines, startServe } from '../serve-process.ts';
import { freePort } from '../free-port.ts';
import { REPO_DIR } from '../fixtures.ts';

// `postshot serve` as an operator starts it (bin/postshot.js, a process of its own): a start-up
// failure is one line on stderr and exit code 1; an unreachable Redis is a warning naming it
// (an unreachable database too: test/integration/database-at-start.test.ts).

/** The first answer from `url`, whatever its status, within 30 s; null if none came. */
async function firstAnswer(url: string): Promise<Response | null> {
  for (let i = 0; i < 300; i++) {
    const res = await fetch(url).catch(() => null);
    if (res) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function expectOneLine(env: Record<string, string>, pattern: RegExp): Promise<void> {
  const { child, done } = startServe(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const { code, stderr } = await done;
  clearTimeout(timer);
  assert.equal(code, 1, `exit code for ${JSON.stringify(env)}: ${stderr}`);
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  assert.doesNotMatch(stderr, /pw-that-must-not-show/, 'no password');
}

test('start-up failures are one line on stderr and exit code 1', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fileAsDir = path.join(dir, 'a-file');
  fs.writeFileSync(fileAsDir, 'not a directory');
  const dataDir = path.join(dir, 'data');
  const taken = net.createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  t.after(() => taken.close());
  const takenPort = String((taken.address() as net.AddressInfo).port);

  await expectOneLine(
    { POSTSHOT_DATA_DIR: dataDir, POSTSHOT_TRUST_PROXY: 'garbage' },
    /^postshot: invalid configuration: POSTSHOT_TRUST_PROXY: .*"garbage"$/,
  );
  await expectOneLine(
    { POSTSHOT_DATA_DIR: dataDir, POSTSHOT_TRUST_PROXY: '10.0.0.0/33' },
    /^postshot: invalid configuration: POSTSHOT_TRUST_PROXY: /,
  );
  await expectOneLine(
    { POSTSHOT_DATA_DIR: fileAsDir },
    new RegExp(
      `^postshot: cannot start: data dir ${fileAsDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a directory`,
    ),
  );
  await expectOneLine(
    { POSTSHOT_DATA_DIR: dataDir, PORT: takenPort },
    new RegExp(`^postshot: cannot start: port ${takenPort} on 127.0.0.1 is already in use`),
  );
});

test('a database that refuses for good (no such database, unknown role) or a bad URL is one line and exit code 1, without the password', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const secret = 'pw-that-must-not-show';
  const at = (user: string, database: string) => {
    const u = new URL(PG_URL);
    u.username = user;
    u.password = secret;
    u.pathname = `/${database}`;
    return u.toString();
  };
  const base = { POSTSHOT_DATA_DIR: dir, PORT: String(await freePort()) };
  const cases: Array<[string, RegExp]> = [
    [
      at(new URL(PG_URL).username || 'postgres', 'postshot_no_such_db'),
      /^postshot: cannot start: database postgres:\/\/\w+:redacted@[^ ]+\/postshot_no_such_db: database "postshot_no_such_db" does not exist \(check POSTSHOT_DATABASE_URL\)$/,
    ],
    [
      at('postshot_no_such_role', new URL(PG_URL).pathname.slice(1)),
      /^postshot: cannot start: database postgres:\/\/postshot_no_such_role:redacted@.*: (role "postshot_no_such_role" does not exist|password authentication failed for user "postshot_no_such_role")/,
    ],
    [
      `postgres://user:${secret}@[not-a-host/db`,
      /^postshot: invalid configuration: POSTSHOT_DATABASE_URL: is not a valid URL: "postgres:\/\/redacted@\[not-a-host\/db"$/,
    ],
    [
      `postgres://user:${secret}@db.internal/x?schema=Bad-Name`,
      /^postshot: invalid configuration: POSTSHOT_DATABASE_URL: invalid schema name "Bad-Name"/,
    ],
  ];
  for (const [url, pattern] of cases) {
    await expectOneLine({ ...base, POSTSHOT_DATABASE_URL: url }, pattern);
  }
});

test('a list of proxy subnets is accepted as POSTSHOT_TRUST_PROXY; an unreachable Redis at start is a warning naming it, and /readyz says it is down', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const { child, done } = startServe({
    POSTSHOT_DATA_DIR: dir,
    PORT: String(port),
    POSTSHOT_TRUST_PROXY: '10.0.0.0/8, ::1, loopback',
    POSTSHOT_REDIS_URL: 'redis://127.0.0.1:1',
  });
  t.after(() => child.kill('SIGKILL'));
  const ready = await firstAnswer(`http://127.0.0.1:${port}/readyz`);
  assert.ok(ready, 'the service listens');
  assert.equal(ready.status, 503);
  const body = await ready.json();
  assert.equal(body.checks.redis, 'down');
  assert.match(body.detail, /redis unreachable/);
  child.kill('SIGTERM');
  const { stdout } = await done;
  const warnings = logLines(stdout).filter((l) => l.level === 40 && l.part === 'redis');
  assert.equal(warnings.length, 1, stdout);
  assert.match(String(warnings[0].msg), /^redis unreachable at start \(redis:\/\/127\.0\.0\.1:1\)/);
  // No SMTP server configured: the operator is told once where the e-mails go.
  const mail = logLines(stdout).filter((l) => l.level === 30 && /^no SMTP server/.test(String(l.msg)));
  assert.equal(mail.length, 1, stdout);
  assert.equal(mail[0].dir, path.join(dir, 'mail'));
});

test('NODE_ENV=production without TLS or a trusted proxy: a warning says every API request will be refused, and how to fix it', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warningsOf = async (env: Record<string, string>) => {
    const port = await freePort();
    const { child, done } = startServe({ POSTSHOT_DATA_DIR: dir, PORT: String(port), NODE_ENV: 'production', ...env });
    t.after(() => child.kill('SIGKILL'));
    const up = await firstAnswer(`http://127.0.0.1:${port}/healthz`);
    assert.ok(up, 'the service listens');
    child.kill('SIGTERM');
    const { stdout } = await done;
    return logLines(stdout).filter((l) => l.level === 40 && /https_required/.test(String(l.msg)));
  };
  const warned = await warningsOf({});
  assert.equal(warned.length, 1);
  assert.match(String(warned[0].msg), /POSTSHOT_TLS_CERT.*POSTSHOT_TRUST_PROXY.*POSTSHOT_REQUIRE_HTTPS=false/);
  assert.deepEqual(await warningsOf({ POSTSHOT_TRUST_PROXY: 'loopback' }), [], 'a trusted proxy can say https');
});

test('SIGTERM to `npm start`, as a supervisor sends it, stops the service and frees its data dir', async (t) => {
  const dir = makeTempDir();
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    cwd: REPO_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      POSTSHOT_DATA_DIR: dir,
      PORT: String(port),
      POSTSHOT_RENDER_WARMUP_MS: '0',
      POSTSHOT_RENDER_WORKERS: '1',
    },
    stdio: 'ignore',
    // A group of its own: whatever npm leaves running is killed with it after the test.
    detached: true,
  });
  t.after(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {}
  });
  const deadline = Date.now() + 30_000;
  let up = false;
  while (!up && Date.now() < deadline) {
    up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(up, 'the service answered');
  npm.kill('SIGTERM');
  let down = false;
  while (!down && Date.now() < deadline + 15_000) {
    down = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => false,
      () => true,
    );
    if (!down) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(down, 'the service stopped listening');
  // The next start on the same data dir is not refused as "in use by another postshot serve".
  const { child, done } = startServe({ POSTSHOT_DATA_DIR: dir, PORT: String(await freePort()) });
  const timer = setTimeout(() => child.kill('SIGTERM'), 4_000);
  const { stderr } = await done;
  clearTimeout(timer);
  assert.doesNotMatch(stderr, /in use/);
});

test('PORT=0: serve listens on a port it picks, and its public URL names that port, not 0', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const { child, stdout, done } = startServe({ POSTSHOT_DATA_DIR: dir, PORT: '0' });
  t.after(() => child.kill('SIGKILL'));
  let address: string | undefined;
  for (let i = 0; i < 300 && !address; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const listening = stdout().match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
    address = listening?.[1];
  }
  assert.ok(address, `serve listens: ${stdout()}`);
  // The OpenAPI servers entry is POSTSHOT_PUBLIC_URL, as hosted image URLs and sign-in links are.
  const doc = (await (await fetch(`${address}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
  assert.equal(doc.servers[0].url, address);
  child.kill('SIGTERM');
  await done;
});

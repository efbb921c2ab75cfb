import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../helper.ts';
import { REPO_DIR } from '../fixtures.ts';

// `postshot serve` as an operator starts it (bin/postshot.js, a process of its own): a start-up
// failure is one line on stderr and exit code 1; an unreachable Redis is a warning naming it.

const BIN = path.join(REPO_DIR, 'bin', 'postshot.js');

function startServe(env: Record<string, string>): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', POSTSHOT_RENDER_WARMUP_MS: '0', POSTSHOT_RENDER_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
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
  await expectOneLine(
    {
      POSTSHOT_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      POSTSHOT_DATABASE_URL: 'postgres://127.0.0.1:1/none',
    },
    /^postshot: cannot start: database unreachable: .*ECONNREFUSED/,
  );
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
  let ready: Response | null = null;
  for (let i = 0; i < 300 && !ready; i++) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(ready, 'the service listens');
  assert.equal(ready.status, 503);
  const body = await ready.json();
  assert.equal(body.checks.redis, 'down');
  assert.match(body.detail, /redis unreachable/);
  child.kill('SIGTERM');
  const { stdout } = await done;
  const warnings = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.level === 40 && l.part === 'redis');
  assert.equal(warnings.length, 1, stdout);
  assert.match(warnings[0].msg, /^redis unreachable at start/);
});

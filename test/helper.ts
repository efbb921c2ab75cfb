import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { createAccountWithKey } from '../src/auth/admin.ts';
import type { Clock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer, type Container } from '../src/container.ts';
import type { Plan } from '../src/quota/plans.ts';
import { startFixtureServer, type FixtureServer } from '../src/sources/fixture-server.ts';
import { SAMPLES_DIR, SHARED_FIXTURES } from './fixtures.ts';
import { scaledBackends, scaledMode, type ScaledBackends } from './scaled.ts';

export interface Harness {
  app: FastifyInstance;
  /** The fixture upstream the app reads posts and media from. */
  upstream: FixtureServer;
  c: Container;
  dataDir: string;
  /** Set in scaled-out mode: the PostgreSQL schema, Redis prefix and S3 prefix of this app. */
  scaled?: ScaledBackends;
  /** Creates an account on `plan` and returns its id and plaintext key. */
  account(plan?: Plan, email?: string): Promise<{ accountId: string; apiKey: string }>;
}

export function makeTempDir(prefix = 'postshot-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface BuildTestOptions extends BuildOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Force a mode; by default POSTSHOT_TEST_MODE=scaled selects PostgreSQL + Redis + S3. */
  scaled?: boolean;
  /** Nameservers for image hosts' names (ContainerOptions.nameservers). */
  nameservers?: string[];
}

/** A fresh app over a fresh data dir; closed when the test ends. */
export async function build(t: TestContext, options: BuildTestOptions = {}): Promise<Harness> {
  const dataDir = makeTempDir();
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR, SHARED_FIXTURES] });
  const scaled = (options.scaled ?? scaledMode) ? await scaledBackends() : undefined;
  const config = loadConfig({
    POSTSHOT_DATA_DIR: dataDir,
    POSTSHOT_LOG_LEVEL: 'silent',
    POSTSHOT_UPSTREAM_TIMEOUT_MS: '1000',
    ...upstream.env,
    ...scaled?.env,
    ...options.env,
  });
  const c = await createContainer(config, { clock: options.clock, nameservers: options.nameservers });
  const app = await buildApp(c, options);
  t.after(async () => {
    await app.close();
    await c.close();
    await upstream.close();
    await scaled?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  let accounts = 0;
  return {
    app,
    upstream,
    c,
    dataDir,
    scaled,
    // One account per address: each default account gets its own (user@, user-2@, ...).
    async account(plan: Plan = 'free', email = defaultEmail(++accounts)) {
      const r = await createAccountWithKey(c.accounts, { email, plan }, c.clock());
      if (!r.ok) throw new Error(r.message);
      return { accountId: r.value.account.id, apiKey: r.value.apiKey };
    },
  };
}

function defaultEmail(n: number): string {
  return n === 1 ? 'user@example.com' : `user-${n}@example.com`;
}

/** A clock the test moves by hand. */
export function manualClock(
  start: string | number,
): Clock & { set(t: string | number): void; advance(ms: number): void } {
  let now = typeof start === 'string' ? Date.parse(start) : start;
  const clock = (() => now) as Clock & { set(t: string | number): void; advance(ms: number): void };
  clock.set = (t) => {
    now = typeof t === 'string' ? Date.parse(t) : t;
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export function assertProblem(
  // biome-ignore lint/suspicious/noExplicitAny: a test reads any JSON body
  res: { statusCode: number; headers: Record<string, unknown>; json(): any },
  status: number,
  code: string,
): void {
  if (res.statusCode !== status)
    throw new Error(`expected ${status} ${code}, got ${res.statusCode}: ${JSON.stringify(res.json())}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) throw new Error(`expected problem+json, got ${type}`);
  const body = res.json();
  if (body.code !== code) throw new Error(`expected code ${code}, got ${body.code}`);
  for (const field of ['type', 'title', 'status', 'detail', 'code', 'requestId']) {
    if (!(field in body)) throw new Error(`problem body lacks ${field}`);
  }
  if (body.status !== status) throw new Error(`body.status ${body.status} != ${status}`);
  if (body.message !== body.detail) throw new Error('problem body message differs from detail');
  if (body.requestId !== res.headers['x-request-id']) throw new Error('requestId does not match X-Request-Id');
}

// Real service processes started as deployed (bin/postshot.js serve), for the tests that need
// more than one instance or a process to kill.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createAccountWithKey } from '../src/auth/admin.ts';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/container.ts';
import type { Plan } from '../src/quota/plans.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { REPO_DIR, SAMPLES_DIR } from './fixtures.ts';
import { makeTempDir } from './helper.ts';
import { scaledBackends } from './scaled.ts';
import { freePort } from './free-port.ts';

export interface Instance {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** The data dir was made for this instance (and is removed with it). */
  ownsDataDir: boolean;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Its log lines so far (stdout: warnings and errors at the level the tests start it with). */
  log(): string;
}

/**
 * Starts `serve` and waits until it is ready; without POSTSHOT_DATA_DIR in `env`, on a data dir
 * of its own (each serve holds its dir's lock).
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const ownsDataDir = !env.POSTSHOT_DATA_DIR;
  const dataDir = env.POSTSHOT_DATA_DIR ?? makeTempDir();
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'serve'], {
    env: {
      ...process.env,
      ...env,
      POSTSHOT_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      POSTSHOT_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let log = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`instance exited: ${stderr}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, dataDir, ownsDataDir, stderr: () => stderr, log: () => log };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`instance did not become ready: ${stderr}`);
}

/** Stops an instance (SIGTERM) and removes the data dir made for it. */
export async function stopInstance(i: Instance): Promise<void> {
  if (i.child.exitCode === null && i.child.signalCode === null) {
    const exited = new Promise((r) => i.child.once('exit', r));
    i.child.kill('SIGTERM');
    await exited;
  }
  if (i.ownsDataDir) fs.rmSync(i.dataDir, { recursive: true, force: true });
}

/** Two instances on one fresh PostgreSQL schema, Redis prefix and S3 prefix, and a fixture upstream. */
export async function twoInstances(t: { after(fn: () => Promise<void>): void }, extraEnv: Record<string, string> = {}) {
  const backends = await scaledBackends();
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const env = { ...upstream.env, ...backends.env, ...extraEnv };
  const instances = await Promise.all([startInstance(env), startInstance(env)]);
  t.after(async () => {
    await Promise.all(instances.map(stopInstance));
    await upstream.close();
    await backends.cleanup();
  });
  return { backends, upstream, instances, env };
}

/** Creates an account and key through the store, as the CLI does. */
export async function createKey(
  env: Record<string, string>,
  plan: Plan,
): Promise<{ apiKey: string; accountId: string }> {
  const store = await openAccountStore(loadConfig(env));
  try {
    // One account per address: each key's account gets its own.
    const email = `scale-${randomBytes(4).toString('hex')}@example.com`;
    const r = await createAccountWithKey(store, { email, plan }, Date.now());
    if (!r.ok) throw new Error(r.message);
    return { apiKey: r.value.apiKey, accountId: r.value.account.id };
  } finally {
    await store.close();
  }
}

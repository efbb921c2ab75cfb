// CPU per request of this checkout against another one, in one run: both services are started
// side by side on the same fixture upstream and loaded in turn (alternating which goes first),
// so that a busy machine slows both alike. CPU time (from /proc) is steadier than req/s there.
//
// Usage: node --import tsx bench/compare.ts <other checkout> [path]
//   The other checkout needs node_modules (a symlink to this one's works when the dependencies
//   match), e.g. `git worktree add /tmp/base main && ln -s "$PWD/node_modules" /tmp/base/`.
//   path defaults to Markdown of a sample post. BENCH_ROUNDS (5) rounds of BENCH_REQUESTS (20000).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccountWithKey } from '../src/auth/admin.ts';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/container.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { runLoad } from './load.ts';

const HERE = path.resolve(import.meta.dirname, '..');
const [other, target = '/api/v1/content/1900000000000000001'] = process.argv.slice(2);
if (!other || !fs.existsSync(path.join(other, 'bin', 'postshot.js'))) {
  console.error('usage: node --import tsx bench/compare.ts <other checkout> [path]');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);

/** User plus system CPU of a process, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(checkout: string, port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(path.join(checkout, 'bin', 'postshot.js'), ['serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', POSTSHOT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${checkout} did not start`);
}

const upstream = await startFixtureServer({ roots: [path.join(HERE, 'samples')] });
const services: Array<{ name: string; port: number; keys: string[]; child: ChildProcess; cpu: number[] }> = [];
try {
  for (const [i, [name, checkout]] of [
    ['this', HERE],
    ['other', path.resolve(other)],
  ].entries()) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-compare-'));
    const env = {
      POSTSHOT_DATA_DIR: dataDir,
      ...upstream.env,
      POSTSHOT_RATE_LIMITS: 'free=100000000,pro=100000000,pro_plus=100000000,business=100000000',
    };
    // Quota on, as in the bench: enough business accounts that the load never runs out.
    const store = await openAccountStore(loadConfig(env));
    const keys: string[] = [];
    for (let k = 0; k < 30; k++) {
      const r = await createAccountWithKey(store, { email: `c${k}@example.com`, plan: 'business' }, Date.now());
      if (r.ok) keys.push(r.value.apiKey);
    }
    await store.close();
    const port = 18_700 + (process.pid % 1000) + i;
    services.push({ name, port, keys, child: await start(checkout, port, env), cpu: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...services].reverse() : services) {
      const before = cpuMs(s.child.pid!);
      const result = await runLoad({
        url: `http://127.0.0.1:${s.port}`,
        connections: 8,
        amount: REQUESTS,
        requests: s.keys.map((key) => ({ method: 'GET', path: target, headers: { 'x-api-key': key } })),
      });
      if (result.non2xx > 0) throw new Error(`${s.name}: ${result.non2xx} answers were not 2xx`);
      s.cpu.push(Math.round(((cpuMs(s.child.pid!) - before) * 1000) / REQUESTS));
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(`CPU per request of GET ${target} at concurrency 8, us (rounds; median)`);
  for (const s of services) console.log(`  ${s.name.padEnd(6)} ${s.cpu.join(' ')}; ${median(s.cpu)}`);
} finally {
  for (const s of services) s.child.kill();
  await upstream.close();
}

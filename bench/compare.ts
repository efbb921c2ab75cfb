// CPU per request of this checkout against another one, in one run: both services are started
// side by side on the same fixture upstream and loaded in turn (alternating which goes first),
// so that a busy machine slows both alike. CPU time (from /proc, the service and its render
// processes) is steadier than req/s there. Render cache off; the peak RSS of each service with
// its render processes is sampled while it is loaded.
//
// Usage: node --import tsx bench/compare.ts <other checkout> [paths]
//   BENCH_CONNECTIONS (8): 1 compares latency (p50 per round) rather than throughput.
//   The other checkout needs node_modules (a symlink to this one's works when the dependencies
//   match), e.g. `git worktree add /tmp/base main && ln -s "$PWD/node_modules" /tmp/base/`.
//   paths: comma-separated, requested in turn; Markdown of a sample post by default.
//   BENCH_ROUNDS (5) rounds of BENCH_REQUESTS (20000).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccountWithKey } from '../src/auth/admin.ts';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/container.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { runLoad } from './load.ts';
import { treeCpuMs, treeRssMb } from './proc.ts';

const HERE = path.resolve(import.meta.dirname, '..');
const [other, targets = '/api/v1/content/1900000000000000001'] = process.argv.slice(2);
const paths = targets.split(',');
if (!other || !fs.existsSync(path.join(other, 'bin', 'postshot.js'))) {
  console.error('usage: node --import tsx bench/compare.ts <other checkout> [paths]');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

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
interface Service {
  name: string;
  port: number;
  keys: string[];
  child: ChildProcess;
  cpu: number[];
  rps: number[];
  p50: number[];
  peakMb: number;
}
const services: Service[] = [];
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
      POSTSHOT_RENDER_CACHE_MB: '0',
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
    services.push({ name, port, keys, child: await start(checkout, port, env), cpu: [], rps: [], p50: [], peakMb: 0 });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...services].reverse() : services) {
      const before = treeCpuMs(s.child.pid!);
      const sample = setInterval(() => {
        s.peakMb = Math.max(s.peakMb, treeRssMb(s.child.pid!));
      }, 100);
      const result = await runLoad({
        url: `http://127.0.0.1:${s.port}`,
        connections: CONNECTIONS,
        amount: REQUESTS,
        requests: s.keys.map((key, i) => ({
          method: 'GET',
          path: paths[i % paths.length],
          headers: { 'x-api-key': key },
        })),
      }).finally(() => clearInterval(sample));
      if (result.non2xx > 0) throw new Error(`${s.name}: ${result.non2xx} answers were not 2xx`);
      s.cpu.push(Math.round(((treeCpuMs(s.child.pid!) - before) * 1000) / REQUESTS));
      s.rps.push(Math.round(result.rps));
      s.p50.push(result.p50);
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(`GET ${paths.join(', ')} at concurrency ${CONNECTIONS}`);
  console.log(
    '  CPU per request, us (rounds; median) | req/s (rounds) | p50 ms (rounds; median) | peak summed RSS, MB',
  );
  for (const s of services)
    console.log(
      `  ${s.name.padEnd(6)} ${s.cpu.join(' ')}; ${median(s.cpu)} | ${s.rps.join(' ')} | ${s.p50.join(' ')}; ${median(s.p50)} | ${Math.round(s.peakMb)}`,
    );
} finally {
  for (const s of services) s.child.kill();
  await upstream.close();
}

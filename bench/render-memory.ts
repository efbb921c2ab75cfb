// node --import tsx bench/render-memory.ts: what renders cost in memory, read from outside the
// service (/proc), as test/integration/runaway-render.test.ts reads it. The service runs as
// deployed (bin/postshot.js serve) with one render process, the render cache off.
//   1. Steady state: ordinary cards (the samples and the script corpus, every format), first
//      each once, one at a time from a fresh render process (how much one card grows it), then
//      STEADY_CARDS at concurrency 2, both themes: the render process's RSS after each card, its
//      peak, and how often the pool replaced it (its peak passed recycleMb); then the largest
//      canvas drawn by the process that state left.
//   2. The crafted posts and the 25,000-character note in every format and at the largest
//      canvases the options allow: answer, time, peak RSS of the render process and of the service.
// MEMORY_MB (default 16384: nothing is stopped for its memory) and TIMEOUT_MS (30000) set the
// service's limits; STEADY_CARDS (1000) the length of part 1; ONLY runs the part-2 rows whose
// "post: request" contains it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccountWithKey } from '../src/auth/admin.ts';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/container.ts';
import { readRssMb } from '../src/render/resident-memory.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { CRAFTED_POSTS } from '../test/integration/crafted-posts.ts';
import { CORPUS, corpusBody } from '../test/render/corpus.ts';
import { freePort, waitUntilOk } from '../test/free-port.ts';
import { processTree } from './proc.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const SAMPLES = path.join(REPO, 'samples');
const MEMORY_MB = process.env.MEMORY_MB ?? '16384';
const TIMEOUT_MS = process.env.TIMEOUT_MS ?? '30000';
const STEADY_CARDS = Number(process.env.STEADY_CARDS ?? 1000);
const ONLY = process.env.ONLY;
const GRADIENT = 'linear-gradient(135deg, #1d9bf0, #f91880)';

/** The request variants of part 2: every format, then the largest canvases. */
const VARIANTS: Record<string, Record<string, string>> = {
  'PNG 2x': { format: 'png' },
  SVG: { format: 'svg' },
  HTML: { format: 'html' },
  'JPEG 2x': { format: 'jpeg' },
  'PNG 3x, width 300': { format: 'png', scale: '3', width: '300' },
  'PNG 3x, width 1000': { format: 'png', scale: '3', width: '1000' },
  '4:5 gradient 3x, width 1000': {
    format: 'png',
    scale: '3',
    width: '1000',
    aspectRatio: '4:5',
    containerBackground: GRADIENT,
  },
  '9:16 height 5000 3x, width 1000': {
    format: 'png',
    scale: '3',
    width: '1000',
    aspectRatio: '9:16',
    height: '5000',
    containerBackground: GRADIENT,
  },
  'WebP 3x, width 300': { format: 'webp', scale: '3', width: '300' },
};

/** Resets the kernel's high-water mark of RSS (VmHWM) of the service and its render processes. */
function resetPeaks(root: number): void {
  for (const pid of processTree(root)) fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * Peaks while it runs: the service's and each render process's high-water mark (exact, from the
 * kernel), and the sum of their RSS (sampled every 20 ms).
 */
class Sampler {
  service = 0;
  render = 0;
  total = 0;
  readonly pids = new Set<number>();
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly root: number) {
    resetPeaks(root);
    this.tick();
    this.timer = setInterval(() => this.tick(), 20);
  }
  private tick(): void {
    let sum = readRssMb(this.root, 'VmRSS') ?? 0;
    for (const pid of processTree(this.root).slice(1)) {
      this.pids.add(pid);
      this.render = Math.max(this.render, readRssMb(pid, 'VmHWM') ?? 0);
      sum += readRssMb(pid, 'VmRSS') ?? 0;
    }
    this.service = Math.max(this.service, readRssMb(this.root, 'VmHWM') ?? 0);
    this.total = Math.max(this.total, sum);
  }
  stop(): this {
    clearInterval(this.timer);
    this.tick();
    return this;
  }
}

function rssNow(root: number): { service: number; render: number } {
  const service = readRssMb(root, 'VmRSS') ?? 0;
  const render = processTree(root)
    .slice(1)
    .reduce((s, pid) => s + (readRssMb(pid, 'VmRSS') ?? 0), 0);
  return { service, render };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const mb = (n: number) => `${Math.round(n)}`;

const upstream = await startFixtureServer({ roots: [SAMPLES] });
for (const p of CRAFTED_POSTS) upstream.setBody('fxtwitter', p.id, p.body);
const corpusIds = Object.keys(CORPUS).map((key, i) => {
  const id = String(1800000000000000100n + BigInt(i));
  upstream.setBody('fxtwitter', id, corpusBody(key, {}, id));
  return id;
});
const ordinary = [...upstream.ids(), ...corpusIds];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-render-memory-'));
const port = await freePort();
const env = {
  POSTSHOT_DATA_DIR: dataDir,
  ...upstream.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  POSTSHOT_LOG_LEVEL: 'warn',
  POSTSHOT_RENDER_WORKERS: '1',
  POSTSHOT_RENDER_WARMUP_MS: '0',
  POSTSHOT_RENDER_TIMEOUT_MS: TIMEOUT_MS,
  POSTSHOT_RENDER_MEMORY_MB: MEMORY_MB,
  POSTSHOT_RENDER_CACHE_MB: '0',
  POSTSHOT_RATE_LIMITS: 'business=1000000',
};
const store = await openAccountStore(loadConfig(env));
const created = await createAccountWithKey(store, { email: 'memory@example.com', plan: 'business' }, Date.now());
await store.close();
if (!created.ok) throw new Error('no account');
const headers = { 'x-api-key': created.value.apiKey };

const service: ChildProcess = spawn(path.join(REPO, 'bin', 'postshot.js'), ['serve'], {
  env: { PATH: process.env.PATH ?? '', ...env },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
await waitUntilOk(`${base}/healthz`);
const root = service.pid!;
service.on('exit', (code, signal) => console.log(`the service exited: ${signal ?? code}`));

async function shoot(
  id: string,
  query: Record<string, string>,
): Promise<{ status: number; ms: number; bytes: number }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}/api/v1/screenshot/${id}?${new URLSearchParams(query)}`, { headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, ms: performance.now() - started, bytes };
  } catch (err) {
    console.log(`${id} ${JSON.stringify(query)}: ${(err as Error).cause ?? err}`);
    return { status: 0, ms: performance.now() - started, bytes: 0 };
  }
}

try {
  console.log(`MEMORY_MB ${MEMORY_MB}, TIMEOUT_MS ${TIMEOUT_MS}, load average ${os.loadavg()[0].toFixed(1)}`);

  // 1. Steady state. First every post in every format once, one card at a time from a fresh
  // render process: how much one card grows the process (fonts, caches) at most.
  const formats = ['png', 'svg', 'html', 'jpeg', 'webp'];
  const growth: Array<{ what: string; from: number; to: number }> = [];
  for (const id of ordinary) {
    for (const format of formats) {
      const from = rssNow(root).render;
      await shoot(id, { format });
      growth.push({ what: `${id} ${format}`, from, to: rssNow(root).render });
    }
  }
  const [first, last] = [growth[1].from, growth.at(-1)!.to];
  // The first card started the process: its growth is the whole process.
  growth.shift();
  growth.sort((a, b) => b.to - b.from - (a.to - a.from));
  console.log(
    `one card at a time, ${growth.length + 1} cards from a fresh process: ${mb(first)} MB after the first, ` +
      `${mb(last)} MB after the last; largest growth over one card: ` +
      growth
        .slice(0, 5)
        .map((g) => `${g.what} ${mb(g.from)} -> ${mb(g.to)}`)
        .join(', '),
  );
  const after: number[] = [];
  const failed: string[] = [];
  const steady = new Sampler(root);
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      for (let i = next++; i < STEADY_CARDS; i = next++) {
        const query = { format: formats[i % formats.length], theme: i % 2 ? 'dark' : 'light' };
        const id = ordinary[Math.floor(i / formats.length) % ordinary.length];
        const r = await shoot(id, query);
        if (r.status !== 200) failed.push(`${id} ${query.format}: ${r.status}`);
        after.push(rssNow(root).render);
      }
    }),
  );
  steady.stop();
  console.log(
    `steady: ${STEADY_CARDS} ordinary cards (${ordinary.length} posts x ${formats.join('/')}), c=2: render process ` +
      `RSS after a card p50 ${mb(percentile(after, 0.5))} / p95 ${mb(percentile(after, 0.95))} / max ` +
      `${mb(Math.max(...after))} MB, peak ${mb(steady.render)} MB; ${steady.pids.size - 1} replacements; ` +
      `service peak ${mb(steady.service)} MB; not 200: ${failed.length ? failed.join(', ') : 'none'}`,
  );

  // The largest canvas on the process the steady state left (the most it can hold before a card).
  for (const p of CRAFTED_POSTS.filter((p) => /note|line breaks|100,000/.test(p.name))) {
    const before = rssNow(root);
    const sampler = new Sampler(root);
    const r = await shoot(p.id, VARIANTS['9:16 height 5000 3x, width 1000']);
    sampler.stop();
    console.log(
      `${p.name}, 9:16 height 5000 3x on a warm process (${mb(before.render)} MB): ${r.status} in ` +
        `${(r.ms / 1000).toFixed(1)} s, render process peak ${mb(sampler.render)} MB`,
    );
    for (let i = 0; i < 40; i++) await shoot(ordinary[i % ordinary.length], { format: formats[i % formats.length] });
  }

  // 2. Crafted posts.
  console.log(
    '| post | request | answer | time | render process peak | service peak (before) | sum peak (before) | sum 2 s after |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const p of CRAFTED_POSTS) {
    for (const [variant, query] of Object.entries(VARIANTS)) {
      if (ONLY && !`${p.name}: ${variant}`.includes(ONLY)) continue;
      await shoot('1900000000000000014', { format: 'png' });
      await new Promise((r) => setTimeout(r, 300));
      const before = rssNow(root);
      const sampler = new Sampler(root);
      const r = await shoot(p.id, query);
      sampler.stop();
      await new Promise((r) => setTimeout(r, 2000));
      const settled = rssNow(root);
      console.log(
        `| ${p.name} | ${variant} | ${r.status} (${(r.bytes / 1e6).toFixed(1)} MB) | ${(r.ms / 1000).toFixed(1)} s | ` +
          `${mb(sampler.render)} MB | ${mb(sampler.service)} (${mb(before.service)}) MB | ` +
          `${mb(sampler.total)} (${mb(before.service + before.render)}) MB | ${mb(settled.service + settled.render)} MB |`,
      );
    }
  }
} finally {
  service.kill('SIGTERM');
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

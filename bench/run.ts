// npm run bench: starts the fixture upstream and the service (a child process, as deployed), then
// measures in one run, side by side:
//   1. render latency per format (SVG, PNG 2x, HTML) for a text, 1-photo, 4-photo and quote post,
//      warm upstream/media caches, render cache off (every request renders);
//   1b. PNG latency of the same posts on a gradient container at 4:5 against the plain card,
//      requests interleaved so both see the same machine, each first in half the pairs (the
//      ratio: median over the pairs);
//   2. HTTP throughput and p50/p99 at concurrency 8 for PNG screenshots and Markdown, quota on;
//   3. the same posts screenshotted by headless Chromium from our HTML at the same pixel size;
//   4. the service's peak memory (PSS and summed RSS), and its CPU time per request under load (all threads).
// Every request is made a few times before anything is timed (warm).
// Results are printed and written to bench/results/<time>.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createAccountWithKey } from '../src/auth/admin.ts';
import { loadConfig } from '../src/config.ts';
import { openAccountStore } from '../src/container.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { freePort, waitUntilOk } from '../test/free-port.ts';
import { HttpConnection } from './http-connection.ts';
import { type LoadRequest, runLoad } from './load.ts';
import { readRssMb } from '../src/render/resident-memory.ts';
import { processTree, readProc, treeCpuMs } from './proc.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const POSTS: Record<string, string> = {
  text: '1900000000000000014',
  '1-photo': '1900000000000000018',
  '4-photo': '1900000000000000008',
  quote: '1900000000000000011',
};
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n: number) => Math.round(n * 10) / 10;

async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // Started as `npm start` starts it: through the executable, whose first line sets the allocator.
  const child = spawn(path.join(REPO, 'bin', 'postshot.js'), ['serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', POSTSHOT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  if (await waitUntilOk(`${url}/readyz`, 200)) return { url, child };
  throw new Error('service did not start');
}

/**
 * Proportional MB of the service and of the processes below it (render processes, and esbuild
 * while it bundles): pages they share (the Node binary, libraries) counted once between them,
 * where a sum of RSS counts them in every process.
 */
function treePssMb(root: number): { total: number; service: number; below: number } {
  const pssOf = (pid: number) =>
    Number(/^Pss:\s+(\d+) kB/m.exec(readProc(`/proc/${pid}/smaps_rollup`))?.[1] ?? 0) / 1024;
  const service = pssOf(root);
  const below = processTree(root)
    .slice(1)
    .reduce((sum, pid) => sum + pssOf(pid), 0);
  return { total: service + below, service, below };
}

/** What the bench is measuring now: the peak is reported with the phase it happened in. */
let phase = 'start';

/**
 * The service's peak memory with its render processes, sampled for the whole run (RSS every
 * 50 ms, PSS every 250 ms: reading it walks the page tables): a process's own high-water mark
 * would leave out the render processes (and those replaced).
 */
function samplePeakMemory(pid: number): () => { rss: number; pss: number; at: string; rssAt: string } {
  let rss = 0;
  let pss = 0;
  let at = '';
  let rssAt = '';
  let tick = 0;
  const sampleRss = () => {
    const now = processTree(pid).map((p) => readRssMb(p) ?? 0);
    const total = now.reduce((a, b) => a + b, 0);
    if (total <= rss) return;
    rss = total;
    const below = now.slice(1).filter((mb) => mb > 0);
    rssAt = `${phase}: service ${round(now[0])}, below it ${below.map(round).join(' + ')}`;
  };
  const samplePss = () => {
    const now = treePssMb(pid);
    if (now.total <= pss) return;
    pss = now.total;
    at = `${phase}: service ${round(now.service)}, below it ${round(now.below)}`;
  };
  const timer = setInterval(() => {
    sampleRss();
    if (tick++ % 5 === 0) samplePss();
  }, 50);
  return () => {
    clearInterval(timer);
    sampleRss();
    samplePss();
    return { rss, pss, at, rssAt };
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  const upstream = await startFixtureServer({ roots: [path.join(REPO, 'samples')] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-bench-'));
  const env = {
    POSTSHOT_DATA_DIR: dataDir,
    ...upstream.env,
    POSTSHOT_RATE_LIMITS: 'free=100000000,pro=100000000,pro_plus=100000000,business=100000000',
    POSTSHOT_RENDER_CACHE_MB: '0',
  };
  // Quota stays on: enough business accounts that the load never runs out of credits. The
  // sequential phases have a key of their own, which the load phases' rotation leaves alone.
  const store = await openAccountStore(loadConfig(env));
  const keys: string[] = [];
  for (let i = 0; i < 120; i++) {
    const r = await createAccountWithKey(store, { email: `bench${i}@example.com`, plan: 'business' }, Date.now());
    if (r.ok) keys.push(r.value.apiKey);
  }
  await store.close();
  const sequentialKey = keys.pop();
  if (!sequentialKey) throw new Error('no bench account could be created');
  const service = await startService(env);
  // A phase that throws ends the bench: its service goes with it rather than serving on.
  process.once('exit', () => service.child.exitCode === null && service.child.kill('SIGKILL'));
  const peakMemory = samplePeakMemory(service.child.pid!);
  // One kept-alive connection, as an HTTP client library would hold it.
  const connection = new HttpConnection(service.url);
  const get = async (p: string): Promise<Buffer> => {
    const { status, body } = await connection.request({ path: p, headers: { 'x-api-key': sequentialKey } });
    if (status !== 200) throw new Error(`${p}: ${status} ${body.toString().slice(0, 200)}`);
    return body;
  };

  phase = 'warm-up';
  // Warm: the service's own code has run only the render processes' warm-up so far, and the
  // first few hundred requests run it before V8 has optimized it. Every request the latencies
  // below make, a few times over, first.
  for (let round = 0; round < 5; round++)
    for (const id of Object.values(POSTS))
      for (const format of ['svg', 'png', 'html']) await get(`/api/v1/screenshot/${id}?format=${format}`);

  phase = 'latency at c=1';
  // 1. Render latency through the service (render cache off, upstream and media caches warm).
  const latency: Record<string, Record<string, { p50: number; p95: number }>> = {};
  for (const [name, id] of Object.entries(POSTS)) {
    latency[name] = {};
    for (const format of ['svg', 'png', 'html']) {
      const url = `/api/v1/screenshot/${id}?format=${format}`;
      for (let i = 0; i < 3; i++) await get(url);
      const samples: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) samples.push(await timed(() => get(url)));
      latency[name][format] = { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
    }
  }

  phase = '4:5 gradient against plain, c=1';
  // 1b. A gradient container at 4:5 against the plain card, PNG 2x, samples interleaved.
  const CONTAINER = `&aspectRatio=4:5&containerBackground=${encodeURIComponent('linear-gradient(135deg, #ff5f6d 0%, #ffc371 100%)')}`;
  const container: Record<string, { plain: number; gradient: number; ratio: number }> = {};
  for (const name of ['text', '1-photo']) {
    const plainUrl = `/api/v1/screenshot/${POSTS[name]}?format=png`;
    const gradientUrl = plainUrl + CONTAINER;
    for (let i = 0; i < 3; i++) await get(gradientUrl);
    const plain: number[] = [];
    const gradient: number[] = [];
    // Pairs alternate which goes first: the plain card always first put the ratio lower than
    // the gradient always first did (docs/performance.md, "Containers").
    for (let i = 0; i < ITERATIONS; i++) {
      if (i % 2 === 0) plain.push(await timed(() => get(plainUrl)));
      gradient.push(await timed(() => get(gradientUrl)));
      if (i % 2 === 1) plain.push(await timed(() => get(plainUrl)));
    }
    // Each pair was timed back to back: the median of their ratios follows the machine's speed
    // from moment to moment, where a ratio of the two medians does not.
    const ratio = percentile(
      gradient.map((g, i) => g / plain[i]),
      50,
    );
    const p = round(percentile(plain, 50));
    const g = round(percentile(gradient, 50));
    container[name] = { plain: p, gradient: g, ratio: Math.round(ratio * 100) / 100 };
  }

  // 2. Throughput at concurrency 8, keys rotated so credits never run out.
  // CPU per request is steadier than requests per second on a machine shared with other work.
  const load = async (pathFor: (i: number) => string, mcpTool?: (i: number) => Record<string, unknown>) => {
    const cpuBefore = treeCpuMs(service.child.pid!);
    const result = await runLoad({
      url: service.url,
      connections: 8,
      durationS: DURATION,
      // MCP: the same operation as one JSON-RPC tools/call to POST /mcp.
      requests: keys.map(
        (key, i): LoadRequest =>
          mcpTool
            ? {
                method: 'POST',
                path: '/mcp',
                headers: {
                  'x-api-key': key,
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                },
                body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: mcpTool(i) }),
              }
            : { method: 'GET', path: pathFor(i), headers: { 'x-api-key': key } },
      ),
    });
    const cpuPerRequest = (treeCpuMs(service.child.pid!) - cpuBefore) / result.total;
    return {
      rps: result.rps,
      cpuMsPerRequest: round(cpuPerRequest),
      p50: result.p50,
      p99: result.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  };
  const ids = Object.values(POSTS);
  phase = 'PNG at c=8';
  const png = await load((i) => `/api/v1/screenshot/${ids[i % ids.length]}?format=png`);
  phase = 'Markdown at c=8';
  const markdown = await load((i) => `/api/v1/content/${ids[i % ids.length]}`);
  phase = 'MCP at c=8';
  const mcpMarkdown = await load(
    () => '/mcp',
    (i) => ({ name: 'get_post_markdown', arguments: { tweetId: ids[i % ids.length] } }),
  );
  const throughput = { png, markdown, mcpMarkdown };
  phase = 'Chromium (the service idle)';

  // 3. Headless Chromium, page reused, screenshotting our HTML at the same size (2x).
  const chromiumResult: Record<string, { p50: number; p95: number; ratio: number }> = {};
  if (CHROMIUM) {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await (
      await browser.newContext({ viewport: { width: 600, height: 1400 }, deviceScaleFactor: 2 })
    ).newPage();
    for (const [name, id] of Object.entries(POSTS)) {
      const html = (await get(`/api/v1/screenshot/${id}?format=html`)).toString();
      const shoot = async () => {
        await page.setContent(html, { waitUntil: 'load' });
        await page.locator('body > div').screenshot({ type: 'png' });
      };
      for (let i = 0; i < 3; i++) await shoot();
      const samples: number[] = [];
      for (let i = 0; i < Math.min(ITERATIONS, 20); i++) samples.push(await timed(shoot));
      const p50 = round(percentile(samples, 50));
      chromiumResult[name] = { p50, p95: round(percentile(samples, 95)), ratio: round(p50 / latency[name].png.p50) };
    }
    await browser.close();
  }

  const memory = peakMemory();
  connection.close();
  service.child.kill('SIGTERM');
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.availableParallelism(), node: process.version },
    iterations: ITERATIONS,
    latencyMs: latency,
    gradientContainer45PngP50Ms: container,
    throughput,
    chromiumMs: chromiumResult,
    peakRssMb: round(memory.rss),
    peakPssMb: round(memory.pss),
    peakPssAt: memory.at,
    peakRssAt: memory.rssAt,
  };

  console.log('\npostshot bench (render cache off; upstream and media caches warm)\n');
  console.log(
    'render latency, ms (p50 / p95)       SVG            PNG 2x         HTML           Chromium PNG 2x   speed-up',
  );
  for (const name of Object.keys(POSTS)) {
    const l = latency[name];
    const c = chromiumResult[name];
    const cell = (v: { p50: number; p95: number }) => `${v.p50} / ${v.p95}`.padEnd(15);
    console.log(
      `  ${name.padEnd(34)} ${cell(l.svg)}${cell(l.png)}${cell(l.html)}${c ? `${`${c.p50} / ${c.p95}`.padEnd(18)}${c.ratio}x` : 'n/a (no chromium)'}`,
    );
  }
  console.log(
    '\nPNG 2x p50, ms: plain card vs gradient container at 4:5    plain     4:5 gradient   ratio (pairs, p50)',
  );
  for (const [name, v] of Object.entries(container))
    console.log(`  ${name.padEnd(58)} ${String(v.plain).padEnd(9)} ${String(v.gradient).padEnd(14)} ${v.ratio}`);
  console.log('\nHTTP at concurrency 8, quota on               req/s     p50 ms   p99 ms   non-2xx  CPU ms/req');
  for (const [name, t] of Object.entries(throughput)) {
    console.log(
      `  ${({ png: 'PNG screenshots', markdown: 'Markdown content', mcpMarkdown: 'Markdown over MCP (get_post_markdown)' } as Record<string, string>)[name].padEnd(44)} ${String(t.rps).padEnd(9)} ${String(t.p50).padEnd(8)} ${String(t.p99).padEnd(8)} ${String(t.non2xx).padEnd(8)} ${t.cpuMsPerRequest}`,
    );
  }
  console.log(
    `\npeak memory of the service and its render processes: ${round(memory.pss)} MB proportional (PSS), ${round(memory.rss)} MB summed RSS\n  the PSS peak, MB: ${memory.at}\n  the RSS peak, MB: ${memory.rssAt}`,
  );
  const dir = path.join(REPO, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${results.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results: ${path.relative(REPO, file)}`);
}

await main();

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { renderProcessEnv } from '../../src/render/render-env.ts';
import { RenderPool } from '../../src/render/pool.ts';
import { loadPost } from '../render/support.ts';
import { SAMPLES_DIR } from '../fixtures.ts';

function hugePagesHere(): boolean {
  const thp = fs.existsSync('/sys/kernel/mm/transparent_hugepage/enabled')
    ? fs.readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8')
    : '[never]';
  const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
  const [major, minor] = (glibc ?? '0.0').split('.').map(Number);
  return !thp.includes('[never]') && (major > 2 || (major === 2 && minor >= 35));
}

test("an operator's own allocator and thread settings reach render processes as they are", () => {
  for (const own of [
    { MALLOC_MMAP_THRESHOLD_: '131072' },
    { MALLOC_TRIM_THRESHOLD_: '0' },
    { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' },
  ]) {
    const env = renderProcessEnv({ PATH: '/usr/bin', ...own });
    assert.deepEqual(env, { PATH: '/usr/bin', RAYON_NUM_THREADS: '1', ...own });
  }
  assert.equal(renderProcessEnv({ RAYON_NUM_THREADS: '4' }).RAYON_NUM_THREADS, '4');
});

test('render processes keep rasters in the heap, on huge pages where glibc and the kernel allow it, and draw on one engine thread', async (t) => {
  const pool = new RenderPool(1, 60_000);
  t.after(() => pool.close());
  await pool.run(loadPost(SAMPLES_DIR, '1900000000000000014'), new Map(), { format: 'svg', theme: 'light' });
  const [pid] = pool.pids();
  const environ = Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  // The engine's own thread pool: one thread, since the pool runs a process per core.
  assert.equal(environ.RAYON_NUM_THREADS, process.env.RAYON_NUM_THREADS ?? '1');
  const own = ['MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'].filter((n) => process.env[n]);
  if (own.length > 0) {
    t.diagnostic(`${own.join(', ')} set here: the allocator is left as the operator set it`);
    for (const name of own) assert.equal(environ[name], process.env[name]);
    return;
  }
  // A 4:5 container's raster at 2x is about 7 MB: well under both.
  assert.ok(Number(environ.MALLOC_MMAP_THRESHOLD_) >= 16 << 20, environ.MALLOC_MMAP_THRESHOLD_);
  assert.ok(Number(environ.MALLOC_TRIM_THRESHOLD_) >= 16 << 20, environ.MALLOC_TRIM_THRESHOLD_);
  if (hugePagesHere()) assert.equal(environ.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1');
  else {
    t.diagnostic('no transparent huge pages or glibc before 2.35 here: the heap grows on ordinary pages');
    assert.equal(environ.GLIBC_TUNABLES, undefined);
  }
});

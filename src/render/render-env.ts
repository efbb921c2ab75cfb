// The environment a render process starts with. A card's raster, the engine's layers and the
// encoder's copy of the raster are megabytes each. Mapped one by one, each was faulted in anew on
// every card, page by page, which on a virtualized kernel cost more CPU than the drawing
// (docs/performance.md). Kept in glibc's heap, the next card reuses them; the worker frees them
// after each card (render-worker.ts), so the heap holds about what one card needs. The heap grows
// on huge pages where glibc and the kernel allow it. Never over an operator's own settings.
//
// The engine also splits a card's work over a thread pool sized to the cores. The render pool
// already runs a process per core, so those threads only contend: with one per process, PNG
// under load took less CPU and memory (docs/performance.md).
import fs from 'node:fs';

/** Allocations under this come from the heap: the raster of any card but the tallest. */
const MMAP_THRESHOLD = String(32 << 20);
/** Free memory at the heap's top is kept up to this: the next cards' buffers. */
const TRIM_THRESHOLD = MMAP_THRESHOLD;
const OWN_SETTINGS = ['MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'];

/** Whether the C library is glibc 2.35 or later (its malloc can ask for huge pages). */
function glibcHasHugetlb(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  const match = /^(\d+)\.(\d+)/.exec(header?.glibcVersionRuntime ?? '');
  return match !== null && (Number(match[1]) > 2 || (Number(match[1]) === 2 && Number(match[2]) >= 35));
}

function hugePagesAvailable(): boolean {
  try {
    return !fs.readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').includes('[never]');
  } catch {
    return false;
  }
}

let supported: boolean | null = null;

/** The parent's environment, with the settings above (huge pages where they apply). */
export function renderProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const threads = env.RAYON_NUM_THREADS === undefined ? { RAYON_NUM_THREADS: '1' } : {};
  if (OWN_SETTINGS.some((name) => env[name] !== undefined)) return { ...env, ...threads };
  supported ??= hugePagesAvailable() && glibcHasHugetlb();
  return {
    ...env,
    ...threads,
    MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD,
    MALLOC_TRIM_THRESHOLD_: TRIM_THRESHOLD,
    ...(supported ? { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' } : {}),
  };
}

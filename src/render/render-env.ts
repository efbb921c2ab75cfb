// The environment a render process starts with. A card's raster and the engine's layers are
// megabytes each; in glibc's heap, what a burst of cards freed stays in the process, fragmented.
// Mapped instead (4 MB and up), each is given back when freed; transparent huge pages keep
// mapping them cheap. Without huge pages every card would fault its buffers in anew at 4 KB a
// page (docs/performance.md), so this applies only where glibc can ask for them (2.35 and later)
// and the kernel grants them, and never over an operator's own allocator settings.
import fs from 'node:fs';

const MMAP_THRESHOLD = String(4 << 20);

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

/** The parent's environment, with the allocator settings above where they apply. */
export function renderProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.MALLOC_MMAP_THRESHOLD_ !== undefined || env.GLIBC_TUNABLES !== undefined) return env;
  supported ??= hugePagesAvailable() && glibcHasHugetlb();
  if (!supported) return env;
  return { ...env, MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };
}

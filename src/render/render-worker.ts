// A render process (pool.ts forks it): draws the cards its parent sends over IPC and answers each.
import v8 from 'node:v8';
import type { Post } from '../sources/post.ts';
import type { PreparedImage } from './assets.ts';
import { heapInUse, trimHeap } from './c-heap.ts';
import { renderCard, type RenderOptions } from './renderer.ts';
import { readRssMb } from './resident-memory.ts';

export interface RenderTask {
  id: number;
  post: Post;
  assets: Array<[string, PreparedImage | null]>;
  options: RenderOptions;
}

/** `peakMb`: the most resident memory the process has had, which the pool recycles it by. */
export type RenderReply =
  | { id: number; ok: true; bytes: Uint8Array; contentType: string; peakMb: number }
  | { id: number; ok: false; error: string; peakMb: number };

/** A warning raised in a render process (a character no font draws), for the service to emit. */
export interface RenderWarning {
  warning: { message: string; type: string; code?: string };
}

const send = process.send?.bind(process);
if (!send) throw new Error('render-worker runs as a child process with an IPC channel');

// The pool keeps this process's stderr for the report of a crash, and starts it with
// --no-warnings: a warning goes to the service, on whose stderr the operator reads it.
process.on('warning', (w: Error & { code?: string }) =>
  send({ warning: { message: w.message, type: w.name, code: w.code } } satisfies RenderWarning),
);

// A card's raster is external memory that V8 frees at its next collection, and an idle process
// allocates nothing that would start one: after a tall card it kept 100+ MB until the next card.
// So a process left idle holding more than this collects at once (the pool starts it with
// --expose-gc); ordinary cards leave a few MB.
const COLLECT_ABOVE_BYTES = 64 << 20;
// After a burst of ordinary cards, what the last ones left would stay until the next burst: a
// process idle this long collects and trims its heap too. Under steady load it never is.
const COLLECT_WHEN_IDLE_MS = 250;
const collect = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
// The heap keeps what cards freed for the next ones to reuse (render-env.ts), but what they
// freed in between blocks still in use can only be given back by a trim: once the process has
// grown this far past its size after the last trim, it trims (a few ms, rarely).
const TRIM_AFTER_GROWTH_BYTES = 40 << 20;
let trimmedAt = 0;
// A raster, or the encoder's copy of it, that a collection during its card moved to the old
// generation outlives the minor collection at the card's end. V8 does not count the encoder's
// copy (a wrapped native object), so its own full collections come late: when two cards shared a
// process, the C heap in use grew to several times what one leaves (docs/performance.md). So the
// process collects fully once the C heap in use has grown this far since the last full collection.
const COLLECT_AFTER_GROWTH_BYTES = 64 << 20;
let inUseAfterCollect = 0;
let drawing = 0;
let pendingCollect: NodeJS.Timeout | null = null;

/**
 * The most resident memory this process has had (VmHWM). Not getrusage's maxrss: across fork and
 * exec that starts at the parent's resident size, so a large service would recycle every process.
 */
const peakMb = () => readRssMb(process.pid, 'VmHWM') ?? 0;

function trim(): void {
  if (trimHeap()) trimmedAt = process.memoryUsage.rss();
}

/** A full collection, and the C heap's use it left, which the next one is measured from. */
function collectFully(): void {
  collect?.();
  inUseAfterCollect = heapInUse() ?? 0;
}

/** A full collection, then what it freed goes back to the system. */
function collectAndTrim(): void {
  collectFully();
  trim();
}

/**
 * After a raster card. Its raster and the encoder's copy of it belong to objects that died young:
 * a minor collection frees them now, so the next card reuses their memory (render-env.ts) instead
 * of the heap growing by what V8 would otherwise have let pile up. A vector card holds no raster,
 * and reading the C heap walks its free lists: skipping both took a sixth off an SVG card's CPU.
 */
function releaseRaster(): void {
  collect?.({ type: 'minor' });
  const inUse = heapInUse();
  if (inUse !== null && inUse > inUseAfterCollect + COLLECT_AFTER_GROWTH_BYTES) collectFully();
}

function collectIfIdle(): void {
  if (drawing > 0) return;
  if (v8.getHeapStatistics().external_memory > COLLECT_ABOVE_BYTES) collectAndTrim();
  // A task that arrives first clears the timer, so it fires only in a process still idle.
  else pendingCollect = setTimeout(collectAndTrim, COLLECT_WHEN_IDLE_MS).unref();
}

process.on('message', async (task: RenderTask) => {
  drawing++;
  if (pendingCollect) clearTimeout(pendingCollect);
  pendingCollect = null;
  try {
    const out = await renderCard(task.post, new Map(task.assets), task.options);
    const bytes = new Uint8Array(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength);
    send({ id: task.id, ok: true, bytes, contentType: out.contentType, peakMb: peakMb() } satisfies RenderReply);
  } catch (err) {
    send({
      id: task.id,
      ok: false,
      error: String((err as Error)?.stack ?? err),
      peakMb: peakMb(),
    } satisfies RenderReply);
  } finally {
    drawing--;
  }
  if (task.options.format !== 'svg' && task.options.format !== 'html') releaseRaster();
  if (trimmedAt === 0) trimmedAt = process.memoryUsage.rss();
  else if (process.memoryUsage.rss() > trimmedAt + TRIM_AFTER_GROWTH_BYTES) trim();
  collectIfIdle();
});
// The parent going away (even by SIGKILL) closes the channel: nothing is left drawing for no one.
// Not process.exit(): it waits for libuv's threads, and with them for a render in the engine.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
send({ ready: true });

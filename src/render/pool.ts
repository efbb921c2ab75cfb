import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import type { RenderReply } from './render-worker.ts';
import type { RenderOptions, Rendered } from './renderer.ts';
import { renderWorkerScript } from './worker-script.ts';

export class RenderTimeoutError extends Error {
  constructor(ms: number) {
    super(`render did not finish within ${ms} ms`);
  }
}

interface Job {
  id: number;
  post: Post;
  assets: Assets;
  options: RenderOptions;
  resolve: (r: Rendered) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * satori and resvg are synchronous CPU work: they run in worker threads (one per core less one
 * by default) so the event loop keeps serving while cards render. A render past the time limit
 * fails with RenderTimeoutError and its worker is replaced. Workers start on first use.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly timeoutMs: number,
  ) {}

  /**
   * One worker per core less one: the event loop (HTTP, quota) and V8's garbage-collection
   * threads need a core too. On 2 cores, 1 worker served 45.6 PNG/s at 380 MB peak RSS and 2
   * workers 55.6 PNG/s at 522 MB (scratch load test, bench posts, c=8).
   */
  static defaultSize(): number {
    return Math.max(1, os.availableParallelism() - 1);
  }

  run(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
    if (this.closed) return Promise.reject(new Error('render pool closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, post, assets, options, resolve, reject });
      this.dispatch();
    });
  }

  private spawn(): Slot {
    // A render allocates 3-10 MB of short-lived objects. With a 4 MB young generation they were
    // promoted mid-render and the old generation was fully collected every few renders: V8's
    // helper threads then used 40 % of the CPU a render took (perf, 2 cores). 16 MB lets them
    // die young. The old-generation cap also sets how far V8 lets that generation grow between
    // full collections (×1.3 of the live size under 256 MB, ×4 from 2 GB): the live heap is
    // ~30 MB, and at ×4 the same 2-core load ran 45.6 PNG/s instead of 37.5 for 59 MB more RSS.
    const worker = new Worker(renderWorkerScript(), {
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 2048 },
    });
    const slot: Slot = { worker, ready: Promise.resolve(), job: null, timer: null };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (m: unknown) => {
        if ((m as { ready?: boolean }).ready) {
          worker.off('message', onFirst);
          resolve();
        }
      };
      worker.on('message', onFirst);
      worker.once('error', reject);
    });
    worker.on('message', (m: RenderReply | { ready: true }) => {
      if ('ready' in m) return;
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      this.finish(slot);
      if (m.ok) job.resolve({ bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), contentType: m.contentType });
      else job.reject(new Error(m.error));
      this.dispatch();
    });
    worker.on('error', (err) => {
      const job = slot.job;
      this.replace(slot);
      job?.reject(err);
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  private replace(slot: Slot): void {
    this.finish(slot);
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      const s = slot;
      s.timer = setTimeout(() => {
        if (s.job !== job) return;
        this.replace(s);
        job.reject(new RenderTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      s.ready.then(
        () => {
          if (s.job === job) s.worker.postMessage({ id: job.id, post: job.post, assets: [...job.assets], options: job.options });
        },
        (err) => {
          this.replace(s);
          job.reject(err);
        },
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('render pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}

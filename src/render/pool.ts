import os from 'node:os';
import v8 from 'node:v8';
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
  /** Jobs posted to this worker and not yet answered, with their time limits. */
  jobs: Map<number, { job: Job; timer: NodeJS.Timeout }>;
}

/**
 * A worker is given a second card while it draws one: the first card's deflate runs on libuv's
 * threads (renderer.ts) while the worker lays out and rasterizes the second. On 2 cores this took
 * PNG throughput from 28 to 37 cards/s in one worker (scratch/tput.mts, bench posts; resvg then
 * also ran on libuv's threads), where a second worker would have cost its own V8 heap (+140 MB).
 */
const JOBS_PER_WORKER = 2;

/**
 * satori and resvg are synchronous CPU work: they run in worker threads (one per core less one
 * by default) so the event loop keeps serving while cards render. A render past the time limit
 * fails with RenderTimeoutError and its worker is replaced; the other card that worker was
 * drawing goes back to the queue. Workers start on first use.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private isClosed = false;

  constructor(
    readonly size: number,
    private readonly timeoutMs: number,
    /** The module a worker starts from (tests give their own). */
    private readonly script: () => URL = renderWorkerScript,
  ) {}

  /**
   * One worker per core less one: the event loop (HTTP, quota) and V8's garbage-collection
   * threads need a core too. On 2 cores, 1 worker served 45.6 PNG/s at 380 MB peak RSS and 2
   * workers 55.6 PNG/s at 522 MB (scratch load test, bench posts, c=8).
   */
  static defaultSize(): number {
    return Math.max(1, os.availableParallelism() - 1);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  run(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
    if (this.isClosed) return Promise.reject(new Error('render pool closed'));
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
    // V8 applies --max-semi-space-size (bin/postshot.js sets it for the event loop) to every
    // isolate, over a worker's resourceLimits. The flag is only read when an isolate is made.
    v8.setFlagsFromString('--max-semi-space-size=0');
    const worker = new Worker(this.script(), {
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 2048 },
    });
    const slot: Slot = { worker, ready: Promise.resolve(), jobs: new Map() };
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
      const entry = slot.jobs.get(m.id);
      if (!entry) return;
      clearTimeout(entry.timer);
      slot.jobs.delete(m.id);
      if (m.ok)
        entry.job.resolve({
          bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
          contentType: m.contentType,
        });
      else entry.job.reject(new Error(m.error));
      this.dispatch();
    });
    worker.on('error', (err) => {
      // Which card broke the worker is unknown: every card it had fails.
      for (const job of this.replace(slot)) job.reject(err);
      this.dispatch();
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /** The jobs a worker holds, taken from it with their time limits stopped. */
  private takeJobs(slot: Slot): Job[] {
    const jobs = [...slot.jobs.values()].map(({ job, timer }) => {
      clearTimeout(timer);
      return job;
    });
    slot.jobs.clear();
    return jobs;
  }

  /** Terminates a worker and returns the jobs it had. */
  private replace(slot: Slot): Job[] {
    const jobs = this.takeJobs(slot);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void slot.worker.terminate();
    return jobs;
  }

  /** The least busy worker that can take a job; a new one while the pool is not full and none is idle. */
  private pickSlot(): Slot | null {
    let best: Slot | null = null;
    for (const s of this.slots) if (s.jobs.size < JOBS_PER_WORKER && (!best || s.jobs.size < best.jobs.size)) best = s;
    if ((!best || best.jobs.size > 0) && this.slots.length < this.size) return this.spawn();
    return best;
  }

  private dispatch(): void {
    if (this.isClosed) return;
    while (this.queue.length > 0) {
      const slot = this.pickSlot();
      if (!slot) return;
      const job = this.queue.shift()!;
      const timer = setTimeout(() => {
        if (!slot.jobs.has(job.id)) return;
        const others = this.replace(slot).filter((j) => j !== job);
        // The other card was only unlucky to share the worker: it is drawn again elsewhere.
        this.queue.unshift(...others);
        job.reject(new RenderTimeoutError(this.timeoutMs));
        this.dispatch();
      }, this.timeoutMs);
      slot.jobs.set(job.id, { job, timer });
      slot.ready.then(
        () => {
          if (slot.jobs.has(job.id))
            slot.worker.postMessage({ id: job.id, post: job.post, assets: [...job.assets], options: job.options });
        },
        (err) => {
          for (const j of this.replace(slot)) j.reject(err);
          this.dispatch();
        },
      );
    }
  }

  async close(): Promise<void> {
    this.isClosed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('render pool closed'));
    const slots = this.slots.splice(0);
    for (const job of slots.flatMap((s) => this.takeJobs(s))) job.reject(new Error('render pool closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

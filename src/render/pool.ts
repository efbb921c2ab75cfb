import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ClientGoneError } from '../errors.ts';
import type { Post } from '../sources/post.ts';
import type { Assets, PreparedImage } from './assets.ts';
import type { RenderReply, RenderTask, RenderWarning } from './render-worker.ts';
import type { RenderOptions, Rendered } from './renderer.ts';
import { renderProcessEnv } from './render-env.ts';
import { readRssMb } from './resident-memory.ts';
import { renderWorkerScript } from './worker-script.ts';

export class RenderTimeoutError extends Error {
  constructor(ms: number, message = `render did not finish within ${ms} ms`) {
    super(message);
  }
}

/** A render stopped for the memory it took: answered like a render past its time limit. */
export class RenderMemoryError extends RenderTimeoutError {
  constructor(detail: string) {
    super(0, `render stopped: ${detail}`);
  }
}

/**
 * No render process took the card within the render time limit: every one was busy. Answered 503
 * so the client retries later, rather than a queue that grows for as long as load exceeds what
 * the processes can draw.
 */
export class RenderBusyError extends Error {
  constructor(ms: number) {
    super(`no render process was free within ${ms} ms`);
  }
}

export interface RenderLimits {
  /** A render process whose resident memory passes this is killed, with the cards it held. */
  memoryMb: number;
  /**
   * A render process whose resident memory has ever reached this (its peak) is replaced once it
   * has no cards: whatever a large card took comes back, including what the process would keep.
   */
  recycleMb: number;
}

/**
 * Sized from measurements (docs/performance.md, "Render memory"): the largest canvas the options
 * allow renders within memoryMb, and ordinary cards keep a process well under recycleMb.
 */
export const DEFAULT_RENDER_LIMITS: RenderLimits = Object.freeze({ memoryMb: 1280, recycleMb: 384 });

interface Job {
  id: number;
  post: Post;
  assets: Assets;
  options: RenderOptions;
  resolve: (r: Rendered) => void;
  reject: (e: Error) => void;
  /** Whose card it is (an account): the queue takes turns between owners. */
  owner?: string;
  /** Fails the card with RenderBusyError if it is still queued after the time limit. */
  waiting?: NodeJS.Timeout;
}

export interface RunContext {
  /** The client went away: a card still queued is taken out and fails with ClientGoneError. */
  signal?: AbortSignal;
  /** Whose card it is: one owner's many heavy cards do not hold up another's. */
  owner?: string;
}

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  /** The card posted to this process and not yet answered, with its time limit. */
  drawing: { job: Job; timer: NodeJS.Timeout } | null;
  /** Samples the process's RSS while it draws. */
  watch: NodeJS.Timeout | null;
  /** Set once the pool has let go of this process: its exit is expected. */
  dropped: boolean;
  /** The most resident memory the process has had, as its last answer said (MB). */
  peakMb: number;
}

const WATCH_MS = 100;
/** Owners whose last turn the queue remembers before it forgets those with nothing queued. */
const SERVED_OWNERS_KEPT = 1024;

/** SharedArrayBuffers do not cross a process boundary: the bytes are copied into the message. */
function assetsForIpc(assets: Assets): Array<[string, PreparedImage | null]> {
  return [...assets].map(([url, img]) => [url, img && { ...img, bytes: new Uint8Array(img.bytes) }]);
}

/**
 * Cards are drawn in child processes (one per core less one by default) so the event loop keeps
 * serving while they render. Threat model: a post is hostile input, and a render of it may not
 * stop by itself. A worker thread cannot be stopped from outside: V8 drops worker.terminate()'s
 * request inside Intl.Segmenter iteration and cannot interrupt native code (the engine), so a
 * terminated thread could keep drawing. A process is SIGKILLed: its CPU and memory are back at
 * once. A render past the time limit fails with RenderTimeoutError; a process past `memoryMb`
 * fails its card with RenderMemoryError; either is killed and replaced on next use.
 *
 * A process draws one card at a time: a limit it passes is that card's, and two cards at once
 * took more CPU and memory per card than one (docs/performance.md, "Session 30").
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private isClosed = false;
  /** When each owner's card last went to a process (a count of cards sent), for taking turns. */
  private readonly servedAt = new Map<string | undefined, number>();
  private served = 0;
  /**
   * The latest turn forgotten (noteServed), -1 until one is: an owner not in servedAt was served no
   * later, or never, and ranks as served then. Ranked as never served, an owner forgotten while its
   * card was drawn went before every owner still waiting at its next card, however recently served.
   */
  private forgottenUpTo = -1;
  /** The script, once known: processes are started only after it is. */
  private scriptUrl: URL | null = null;
  private scriptKnown: Promise<void> | null = null;

  constructor(
    readonly size: number,
    private readonly timeoutMs: number,
    /** The module a render process starts from (tests give their own). */
    private readonly script: () => URL | Promise<URL> = renderWorkerScript,
    private readonly limits: RenderLimits = DEFAULT_RENDER_LIMITS,
  ) {}

  /**
   * One process per core less one: the event loop (HTTP, quota) and V8's garbage-collection
   * threads need a core too.
   */
  static defaultSize(): number {
    return Math.max(1, os.availableParallelism() - 1);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Process ids of the render processes running now (tests and metrics sample them). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.child.pid ? [s.child.pid] : []));
  }

  /** Draws a card, in turn with other owners' (RunContext). */
  run(post: Post, assets: Assets, options: RenderOptions, context: RunContext = {}): Promise<Rendered> {
    const { signal, owner } = context;
    if (this.isClosed) return Promise.reject(new Error('render pool closed'));
    if (!this.scriptUrl) {
      this.scriptKnown ??= Promise.resolve(this.script()).then((url) => {
        this.scriptUrl = url;
      });
      return this.scriptKnown.then(() => this.run(post, assets, options, context));
    }
    if (signal?.aborted) return Promise.reject(new ClientGoneError());
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const leave = (err: Error) => {
        const at = this.queue.findIndex((j) => j.id === id);
        if (at < 0) return; // drawing already: it finishes, and the render cache keeps it
        const [job] = this.queue.splice(at, 1);
        job.reject(err);
      };
      const gone = () => leave(new ClientGoneError());
      signal?.addEventListener('abort', gone, { once: true });
      const done = () => {
        signal?.removeEventListener('abort', gone);
        clearTimeout(waiting);
      };
      const waiting = setTimeout(() => leave(new RenderBusyError(this.timeoutMs)), this.timeoutMs);
      this.queue.push({
        id,
        waiting,
        post,
        assets,
        options,
        owner,
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      this.dispatch();
    });
  }

  private spawn(): Slot {
    const script = this.scriptUrl;
    if (!script) throw new Error('a render process is started only once its script is known');
    // A card leaves little JavaScript garbage (the engine is native): a 1 MB young generation
    // frees the megabytes of raster buffers it references soonest, and V8's settings for size
    // hold the process's peak lower at the same CPU (docs/performance.md). No old-generation cap:
    // it made V8 collect every few cards; the RSS watch below bounds the process.
    // gc() lets an idle process free a large card's raster (render-worker.ts).
    const execArgv = ['--max-semi-space-size=1', '--expose-gc', '--optimize-for-size', '--no-warnings'];
    if (script.pathname.endsWith('.ts')) execArgv.push('--import', 'tsx');
    const child = fork(fileURLToPath(script), [], {
      execArgv,
      serialization: 'advanced',
      env: renderProcessEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { child, ready: Promise.resolve(), drawing: null, watch: null, dropped: false, peakMb: 0 };
    // What the process last said on stderr (V8's out-of-memory report is many lines): the first
    // line of it goes into the error of the cards it held, not onto the service's stderr.
    let said = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => {
      said = (said + s).slice(-8192);
    });
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    slot.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (m: unknown) => {
        if ((m as { ready?: boolean }).ready) {
          child.off('message', onFirst);
          resolve();
        }
      };
      child.on('message', onFirst);
      child.once('error', reject);
      child.once('exit', () => reject(new Error('render process exited before it was ready')));
    });
    slot.ready.catch(() => {});
    child.on('message', (m: RenderReply | RenderWarning | { ready: true }) => {
      if ('ready' in m) return;
      if ('warning' in m) {
        process.emitWarning(m.warning.message, { type: m.warning.type, code: m.warning.code });
        return;
      }
      if (Number.isFinite(m.peakMb)) slot.peakMb = Math.max(slot.peakMb, m.peakMb);
      const entry = slot.drawing;
      if (entry?.job.id !== m.id) return;
      clearTimeout(entry.timer);
      slot.drawing = null;
      if (m.ok)
        entry.job.resolve({
          bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
          contentType: m.contentType,
        });
      else entry.job.reject(new Error(m.error));
      this.idle(slot);
      this.dispatch();
    });
    child.on('exit', (code, signal) => {
      if (slot.dropped) return;
      // V8 aborts a process that reaches its heap cap, so an exit is what a card too large for the
      // limits looks like.
      const why = /FATAL ERROR: [^\n]*|Error: [^\n]*/.exec(said)?.[0];
      const err = new RenderMemoryError(
        `the render process exited (${signal ?? `code ${code}`})${why ? `: ${why}` : ''}`,
      );
      this.drop(slot)?.reject(err);
      this.dispatch();
    });
    child.on('error', (err) => {
      this.drop(slot)?.reject(err);
      this.dispatch();
    });
    // An idle render process does not keep the service (or a CLI command) running.
    child.unref();
    child.channel?.unref();
    this.slots.push(slot);
    return slot;
  }

  /** Starts sampling a busy process's memory; its channel holds the event loop while it works. */
  private busy(slot: Slot): void {
    slot.child.channel?.ref();
    if (slot.watch) return;
    slot.watch = setInterval(() => {
      const pid = slot.child.pid;
      const mb = pid ? readRssMb(pid) : null;
      if (mb === null || mb <= this.limits.memoryMb) return;
      this.drop(slot)?.reject(new RenderMemoryError(`its process passed ${this.limits.memoryMb} MB`));
      this.dispatch();
    }, WATCH_MS);
    slot.watch.unref();
  }

  /**
   * A process with no card: replaced if a card took it large, so memory returns after it. Its
   * peak decides, not its RSS now: a process keeps part of what a large card took (allocator
   * arenas, engine caches, rasters not yet collected), and the kernel's peak misses no spike.
   * The process reports that peak with each answer: reading it from /proc here cost the
   * service's event loop a tenth of a millisecond per card.
   */
  private idle(slot: Slot): void {
    if (slot.dropped || slot.drawing) return;
    if (slot.watch) clearInterval(slot.watch);
    slot.watch = null;
    slot.child.channel?.unref();
    if (slot.peakMb > this.limits.recycleMb) this.drop(slot);
  }

  /** Kills a process and returns the card it had, its time limit stopped. */
  private drop(slot: Slot): Job | undefined {
    const job = slot.drawing?.job;
    if (slot.drawing) clearTimeout(slot.drawing.timer);
    slot.drawing = null;
    if (slot.watch) clearInterval(slot.watch);
    slot.watch = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (!slot.dropped) {
      slot.dropped = true;
      slot.child.kill('SIGKILL');
    }
    return job;
  }

  /** An idle process; a new one while the pool is not full. */
  private pickSlot(): Slot | null {
    const idle = this.slots.find((s) => !s.drawing);
    if (idle) return idle;
    return this.slots.length < this.size ? this.spawn() : null;
  }

  /**
   * Which queued card goes next: the earliest of an owner with the fewest cards in the processes,
   * and of those the owner served longest ago (one not remembered, never served or forgotten, as at
   * the latest turn forgotten), so owners take turns and one owner's heavy cards do not hold up
   * everyone else.
   */
  private nextInQueue(): number {
    if (this.queue.length === 1) return 0;
    const drawing = new Map<string | undefined, number>();
    for (const s of this.slots) {
      const owner = s.drawing?.job.owner;
      if (s.drawing) drawing.set(owner, (drawing.get(owner) ?? 0) + 1);
    }
    let best = 0;
    let rank = [Number.POSITIVE_INFINITY, 0];
    for (let i = 0; i < this.queue.length; i++) {
      const { owner } = this.queue[i];
      const r = [drawing.get(owner) ?? 0, this.servedAt.get(owner) ?? this.forgottenUpTo];
      if (r[0] < rank[0] || (r[0] === rank[0] && r[1] < rank[1])) [best, rank] = [i, r];
    }
    return best;
  }

  /** Notes that `owner` was served now; forgets owners with no card queued once many are noted. */
  private noteServed(owner: string | undefined): void {
    this.servedAt.set(owner, this.served++);
    if (this.servedAt.size <= SERVED_OWNERS_KEPT) return;
    const queued = new Set(this.queue.map((j) => j.owner));
    for (const [known, at] of this.servedAt) {
      if (queued.has(known)) continue;
      this.servedAt.delete(known);
      this.forgottenUpTo = Math.max(this.forgottenUpTo, at);
    }
  }

  private dispatch(): void {
    if (this.isClosed) return;
    while (this.queue.length > 0) {
      const slot = this.pickSlot();
      if (!slot) return;
      const [job] = this.queue.splice(this.nextInQueue(), 1);
      this.noteServed(job.owner);
      clearTimeout(job.waiting);
      const timer = setTimeout(() => {
        if (slot.drawing?.job !== job) return;
        this.drop(slot);
        job.reject(new RenderTimeoutError(this.timeoutMs));
        this.dispatch();
      }, this.timeoutMs);
      slot.drawing = { job, timer };
      this.busy(slot);
      slot.ready.then(
        () => {
          if (slot.drawing?.job !== job || slot.dropped) return;
          const task: RenderTask = {
            id: job.id,
            post: job.post,
            assets: assetsForIpc(job.assets),
            options: job.options,
          };
          try {
            slot.child.send(task);
          } catch (err) {
            // A card that cannot be cloned fails; a closed channel shows as the exit.
            clearTimeout(timer);
            slot.drawing = null;
            job.reject(err as Error);
            this.idle(slot);
            this.dispatch();
          }
        },
        (err) => {
          this.drop(slot)?.reject(err);
          this.dispatch();
        },
      );
    }
  }

  async close(): Promise<void> {
    this.isClosed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('render pool closed'));
    const slots = [...this.slots];
    const exits = slots.map((s) => {
      if (s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve();
      s.child.ref(); // so the caller's event loop waits for the exit
      return new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
    });
    for (const s of slots) this.drop(s)?.reject(new Error('render pool closed'));
    await Promise.all(exits);
  }
}

import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../clock.ts';
import type { MediaFetcher } from '../sources/media.ts';
import { pollAsOf, type Post } from '../sources/post.ts';
import type { PublicImageOptions } from '../sources/public-image.ts';
import { ByteLru } from '../util/byte-lru.ts';
import { DEFAULT_RENDER_LIMITS, RenderPool, type RunContext } from './pool.ts';
import type { PreparedImage } from './assets.ts';
import { BackgroundImages } from './background-image.ts';
import { layoutCard } from './layout.ts';
import { loadAssets } from './load-assets.ts';
import { defaultOptions, optionsKey } from './options.ts';
import type { RenderFormat, RenderOptions, Rendered } from './renderer.ts';
import { loadWarmUpCards } from './warm-up.ts';

export interface RendererOptions {
  timeoutMs: number;
  /** Render processes; 0 renders on the calling thread (CLI, small tools). */
  workers: number;
  /** Resident memory a render process may reach (pool.ts); the pool's default when absent. */
  memoryMb?: number;
  /** Bytes of rendered output kept for repeated requests. */
  cacheBytes: number;
  /** Fetch limits for backgroundImage (public https hosts); the media fetcher's when absent. */
  backgroundImages?: PublicImageOptions;
  /** The time an open poll's "time left" is counted from; the system's when absent. */
  clock?: Clock;
}

/**
 * Renders posts for the HTTP layer: fetches the images a card needs (main thread: I/O), draws
 * the card in the worker pool, and keeps recent outputs by (post content, options) so a repeated
 * screenshot costs a hash lookup.
 */
export class Renderer {
  private readonly pool: RenderPool | null;
  private readonly cache: ByteLru<Rendered>;
  /** Counters for metrics and tests. */
  readonly stats = { rendered: 0, cacheHits: 0, warmUpRenders: 0 };
  /** 'warming' while warmUp() runs: readiness reports it, so traffic goes to warm processes first. */
  state: 'cold' | 'warming' | 'warm' = 'cold';

  private readonly backgrounds: BackgroundImages;

  constructor(
    private readonly media: MediaFetcher,
    private readonly options: RendererOptions,
  ) {
    this.backgrounds = new BackgroundImages(options.backgroundImages ?? { timeoutMs: 10_000, maxBytes: 8 << 20 });
    this.pool =
      options.workers > 0
        ? new RenderPool(options.workers, options.timeoutMs, undefined, {
            memoryMb: options.memoryMb ?? DEFAULT_RENDER_LIMITS.memoryMb,
            recycleMb: Math.min(DEFAULT_RENDER_LIMITS.recycleMb, options.memoryMb ?? Number.POSITIVE_INFINITY),
          })
        : null;
    // One output may take at most a quarter of the budget, so a few huge cards cannot flush it.
    this.cache = new ByteLru(options.cacheBytes, (r) =>
      r.bytes.length > options.cacheBytes / 4 ? Number.POSITIVE_INFINITY : r.bytes.length,
    );
  }

  // The in-process post cache hands out the same Post object until the post expires (posts are
  // never modified after normalizing), so its output keys are kept beside it: a cached screenshot
  // then costs no serializing and hashing of the post.
  private readonly keys = new WeakMap<Post, Map<string, string>>();

  /** The output-cache key of a post and options, or null when the cache is off. */
  private keyOf(post: Post, options: RenderOptions, scale: number): string | null {
    if (this.options.cacheBytes <= 0) return null;
    const variant = optionsKey({ ...options, scale });
    let byVariant = this.keys.get(post);
    // Options vary freely (widths, colours): a post keeps the keys of its last few variants only.
    if (!byVariant || byVariant.size >= 32) this.keys.set(post, (byVariant = new Map()));
    let key = byVariant.get(variant);
    if (key === undefined)
      byVariant.set(
        variant,
        (key = createHash('sha256').update(JSON.stringify(post)).update(variant).digest('base64')),
      );
    return key;
  }

  /** The output kept from an earlier render of this post with these options, if any: nothing is drawn. */
  cached(post: Post, options: RenderOptions): Rendered | undefined {
    return this.lookUp(this.keyOf(this.asOfNow(post), options, options.scale ?? 2));
  }

  /** The post as drawn now: its poll's time left is part of the output, so of the cache key too. */
  private asOfNow(post: Post): Post {
    return pollAsOf(post, (this.options.clock ?? systemClock)());
  }

  private lookUp(key: string | null): Rendered | undefined {
    if (key === null) return undefined;
    const hit = this.cache.get(key);
    if (hit) this.stats.cacheHits++;
    return hit;
  }

  /**
   * Fetches and prepares a backgroundImage ahead of a render (kept for it); throws OptionError
   * naming the parameter when the image cannot be had, so a caller can refuse before charging.
   */
  async loadBackground(url: string): Promise<void> {
    await this.backgrounds.load(url);
  }

  /** `context`: whose card it is (turns in the queue) and whether its client is still there. */
  async render(fetched: Post, options: RenderOptions, context: RunContext = {}): Promise<Rendered> {
    const post = this.asOfNow(fetched);
    const scale = options.scale ?? 2;
    const key = this.keyOf(post, options, scale);
    const hit = this.lookUp(key);
    if (hit) return hit;
    const job = { ...options, scale };
    // A background that cannot be had refuses the request (OptionError) before anything is drawn.
    const background = options.backgroundImage ? await this.backgrounds.load(options.backgroundImage) : null;
    const layout = layoutCard({ ...defaultOptions(), ...options });
    const loaded = await loadAssets(post, this.media, scale, undefined, layout);
    const assets = background
      ? new Map<string, PreparedImage | null>([...loaded, [options.backgroundImage!, background]])
      : loaded;
    // Without render processes (CLI) the renderer loads here; with them, the drawing stays out of
    // this process altogether.
    const out = this.pool
      ? await this.pool.run(post, assets, job, context)
      : await (await import('./renderer.ts')).renderCard(post, assets, job);
    this.stats.rendered++;
    // A card drawn with a placeholder is not kept: the image may load next time.
    if (key !== null && ![...assets.values()].includes(null)) this.cache.set(key, out);
    return out;
  }

  /**
   * Starts every worker and has it draw the warm-up cards (warm-up.ts) in all formats for about
   * `budgetMs`, one card per worker at a time so a real request waits for one card at most.
   * Outputs are thrown away and nothing is cached. Resolves with the number of cards drawn.
   */
  async warmUp(budgetMs: number): Promise<number> {
    const pool = this.pool;
    if (!pool || budgetMs <= 0) return 0;
    this.state = 'warming';
    try {
      const cards = await loadWarmUpCards(2);
      // Every format once early: each has its own first-use costs (raster buffers, deflate, font
      // files inlined in HTML); after the first few cards a worker draws at full speed.
      const formats: RenderFormat[] = ['png', 'svg', 'html', 'png', 'svg', 'png'];
      const deadline = performance.now() + budgetMs;
      let n = 0;
      while (performance.now() < deadline && !pool.closed) {
        await Promise.all(
          Array.from({ length: pool.size }, () => {
            const i = n++;
            const { post, assets } = cards[i % cards.length];
            const format = formats[Math.floor(i / cards.length) % formats.length];
            return pool.run(post, assets, { format, theme: i % 2 ? 'dark' : 'light', scale: 2 });
          }),
        );
      }
      this.stats.warmUpRenders += n;
      return n;
    } catch (err) {
      // Shutting down during warm-up is not a failure.
      if (pool.closed) return 0;
      throw err;
    } finally {
      this.state = 'warm';
    }
  }

  /** Process ids of the render processes running now (none without a pool). */
  pids(): number[] {
    return this.pool?.pids() ?? [];
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

import { createHash } from 'node:crypto';
import type { MediaFetcher } from '../sources/media.ts';
import type { Post } from '../sources/post.ts';
import { ByteLru } from '../util/byte-lru.ts';
import { RenderPool } from './pool.ts';
import { loadAssets } from './load-assets.ts';
import type { RenderOptions, Rendered } from './renderer.ts';

export interface RendererOptions {
  timeoutMs: number;
  /** Worker threads; 0 renders on the calling thread (CLI, small tools). */
  workers: number;
  /** Bytes of rendered output kept for repeated requests. */
  cacheBytes: number;
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
  readonly stats = { rendered: 0, cacheHits: 0 };

  constructor(
    private readonly media: MediaFetcher,
    private readonly options: RendererOptions,
  ) {
    this.pool = options.workers > 0 ? new RenderPool(options.workers, options.timeoutMs) : null;
    // One output may take at most a quarter of the budget, so a few huge cards cannot flush it.
    this.cache = new ByteLru(options.cacheBytes, (r) => (r.bytes.length > options.cacheBytes / 4 ? Number.POSITIVE_INFINITY : r.bytes.length));
  }

  private key(post: Post, options: RenderOptions, scale: number): string {
    return createHash('sha256').update(JSON.stringify(post)).update(`|${options.format}|${options.theme}|${scale}`).digest('base64');
  }

  async render(post: Post, options: RenderOptions): Promise<Rendered> {
    const scale = options.scale ?? 2;
    const key = this.key(post, options, scale);
    const hit = this.cache.get(key);
    if (hit) {
      this.stats.cacheHits++;
      return hit;
    }
    const assets = await loadAssets(post, this.media, scale);
    const job = { ...options, scale };
    // Without workers (CLI) the renderer loads here; with them, satori and resvg stay out of the
    // main thread altogether.
    const out = this.pool ? await this.pool.run(post, assets, job) : await (await import('./renderer.ts')).renderCard(post, assets, job);
    this.stats.rendered++;
    // A card drawn with a placeholder is not kept: the image may load next time.
    if (![...assets.values()].includes(null)) this.cache.set(key, out);
    return out;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

import type { MediaFetcher } from '../sources/media.ts';
import type { Post } from '../sources/post.ts';
import { loadAssets, renderCard, type RenderOptions, type Rendered } from './renderer.ts';

/** Renders posts for the HTTP layer: fetches the images a card needs, then draws it. */
export class Renderer {
  constructor(
    private readonly media: MediaFetcher,
    private readonly options: { timeoutMs: number },
  ) {}

  async render(post: Post, options: RenderOptions): Promise<Rendered> {
    const scale = options.scale ?? 2;
    const assets = await loadAssets(post, this.media, scale);
    return renderCard(post, assets, { ...options, scale });
  }
}

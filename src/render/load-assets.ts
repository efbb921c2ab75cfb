import type { Post } from '../sources/post.ts';
import { sizedMediaUrl, type MediaFetcher } from '../sources/media.ts';
import type { Assets, PreparedImage } from './assets.ts';
import { cardImages } from './card.ts';
import { DEFAULT_LAYOUT, type CardLayout } from './layout.ts';
import { ImagePrep } from './image-prep.ts';

const sharedPrep = new ImagePrep();

/** The bytes of a card image for a box of `width`×`height` device pixels, or null (placeholder). */
export type ImageSource = (url: string, width: number, height: number) => Promise<Buffer | null>;

/**
 * Gets every image the card draws from `source` and prepares it at the size it is drawn (device
 * pixels; null: placeholder). An image drawn twice is prepared once, for the larger box.
 */
export async function prepareAssets(
  post: Post,
  scale: number,
  source: ImageSource,
  prep: ImagePrep = sharedPrep,
  layout: CardLayout = DEFAULT_LAYOUT,
): Promise<Assets> {
  const boxes = new Map<string, { width: number; height: number }>();
  for (const { url, width, height } of cardImages(post, layout)) {
    const b = boxes.get(url);
    boxes.set(url, { width: Math.max(width, b?.width ?? 0), height: Math.max(height, b?.height ?? 0) });
  }
  const assets = new Map<string, PreparedImage | null>();
  await Promise.all(
    [...boxes].map(async ([url, box]) => {
      const w = Math.ceil(box.width * scale);
      const h = Math.ceil(box.height * scale);
      const bytes = await source(url, w, h);
      assets.set(url, bytes ? await prep.prepare(bytes, w, h) : null);
    }),
  );
  return assets;
}

/** The card's images fetched through the media cache, each at the width it is drawn in `layout`. */
export function loadAssets(
  post: Post,
  media: MediaFetcher,
  scale: number,
  prep: ImagePrep = sharedPrep,
  layout: CardLayout = DEFAULT_LAYOUT,
): Promise<Assets> {
  return prepareAssets(
    post,
    scale,
    async (url, width) => (await media.fetch(sizedMediaUrl(url, width)))?.bytes ?? null,
    prep,
    layout,
  );
}

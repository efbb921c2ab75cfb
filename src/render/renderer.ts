import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import type { Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { buildCard, cardText, CARD_RADIUS, CARD_WIDTH } from './card.ts';
import { emojiDataUri } from './emoji.ts';
import { readFontData, selectFonts, type FontSelection } from './fonts.ts';
import { encodePng } from './png.ts';
import { drawPhotos, takeMarkers, type LiftedPhoto } from './photo-layer.ts';
import { renderHtmlDocument } from './html.ts';
import { THEMES, type ThemeName } from './theme.ts';
import type { El } from './tree.ts';

export type RenderFormat = 'svg' | 'png' | 'html';

export interface RenderOptions {
  format: RenderFormat;
  theme: ThemeName;
  /** Device pixels per CSS pixel for PNG (and for choosing image sizes). */
  scale?: number;
}

export interface Rendered {
  bytes: Buffer;
  contentType: string;
}

export const CONTENT_TYPES: Record<RenderFormat, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  html: 'text/html; charset=utf-8',
};

export interface CardTree {
  tree: El;
  fonts: FontSelection;
}

/**
 * The one card tree every format is made from. With `lifted`, photos that nothing is drawn over
 * are left for the PNG pipeline to draw (photo-layer.ts) and collected there.
 */
export function buildCardTree(post: Post, theme: ThemeName, assets: Assets, lifted?: LiftedPhoto[]): CardTree {
  const fonts = selectFonts(cardText(post), post.lang);
  const tree = buildCard(post, {
    theme: THEMES[theme],
    assets,
    lifted,
    fontFamily: fonts.families.map((f) => `"${f}"`).join(', '),
  });
  return { tree, fonts };
}

export async function treeToSvg({ tree, fonts }: CardTree): Promise<string> {
  const svg = await satori(tree as never, {
    width: CARD_WIDTH,
    fonts: fonts.faces.map((f) => ({
      name: f.name,
      data: readFontData(f),
      weight: f.weight,
      style: 'normal' as const,
    })),
    loadAdditionalAsset: async (code: string, segment: string) =>
      code === 'emoji' ? (emojiDataUri(segment) ?? '') : [],
  });
  return stripOverflowMasks(svg);
}

// satori wraps every element in an "overflow mask": its own padding box (less the border line
// when it has a border). The card never draws outside a box or over a border (images carry their
// own rounded corners), so these masks change nothing visible, yet resvg renders each one as an
// offscreen layer: the 4-photo card drew 30 of them and spent most of its time there. They are
// removed. CSS overflow is visible by default, so the SVG also gets closer to the HTML output.
const OVERFLOW_MASK = /<mask id="(satori_om-[\w-]+)">[\s\S]*?<\/mask>/g;

// Images are clipped to their own box when they have no rounded corners: a no-op for images
// prepared at exactly that size, and another full-size layer in resvg.
const RECT_CLIP = /<clipPath id="(satori_cp-[\w-]+)"><rect [^>]*\/><\/clipPath>/g;

export function stripOverflowMasks(svg: string): string {
  const ids = new Set<string>();
  const drop = (_m: string, id: string) => {
    ids.add(id);
    return '';
  };
  const without = svg.replace(OVERFLOW_MASK, drop).replace(RECT_CLIP, drop);
  if (ids.size === 0) return svg;
  return without.replace(/ (mask|clip-path)="url\(#(satori_(?:om|cp)-[\w-]+)\)"/g, (m, _a, id: string) =>
    ids.has(id) ? '' : m,
  );
}

const rasterCache = new Map<string, string>();

/**
 * Small embedded SVG images (badges, icons, Twemoji) rasterized once at their drawn device size.
 * resvg renders every nested SVG image as a separate document on each render; a cached PNG of a
 * few hundred bytes decodes in microseconds. Only the PNG pipeline does this: SVG output keeps
 * vector images.
 */
function rasterizeSvgImages(svg: string, scale: number): string {
  return svg.replace(
    /<image\b[^>]*? href="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"[^>]*>/g,
    (whole, data: string) => {
      // satori writes width and height before or after href depending on the element.
      const width = Math.round(Number(/ width="([\d.]+)"/.exec(whole)?.[1]) * scale);
      const height = Math.round(Number(/ height="([\d.]+)"/.exec(whole)?.[1]) * scale);
      if (!(width >= 1 && height >= 1 && width <= 256 && height <= 256)) return whole;
      const key = `${width}x${height}:${createHash('sha1').update(data).digest('base64')}`;
      let png = rasterCache.get(key);
      if (!png) {
        const inner = new Resvg(Buffer.from(data, 'base64').toString('utf8'), {
          fitTo: { mode: 'width', value: width },
          font: { loadSystemFonts: false },
        });
        png = `data:image/png;base64,${inner.render().asPng().toString('base64')}`;
        if (rasterCache.size > 5000) rasterCache.clear();
        rasterCache.set(key, png);
      }
      return whole.replace(`data:image/svg+xml;base64,${data}`, png);
    },
  );
}

// Cards being drawn on this thread. A render worker takes a second card while the first one's
// deflate runs on libuv's thread pool (pool.ts), so the worker's own thread lays out and
// rasterizes the next card meanwhile. Alone, a card deflates inline, which saves the thread
// hand-off. resvg itself always runs here: on libuv's threads each of up to four threads kept
// its own freed pixmaps in resvg's allocator (peak RSS), and a pixmap freed on one thread was
// new memory on the next. Inline, the worker reuses one pixmap's pages card after card
// (bin/postshot.js keeps them 100 ms): PNG load at c=8 on 2 cores went from 29.7-30.1 to
// 31.5-32.5 PNG/s and 50-51 to 44-45 ms of CPU per PNG, page faults from ~2,650 to ~180 per PNG
// (scratch load test, bench posts, alternating runs); npm run bench peaked at 331-350 MB against
// 368 MB.
let inProgress = 0;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function svgToPng(svg: string, scale: number, lifted: LiftedPhoto[] = []): Promise<Buffer> {
  const { svg: rest, boxes } = takeMarkers(svg);
  const source = rasterizeSvgImages(rest, scale);
  // resvg's images and pixmaps are freed by finalizers that Node runs as immediates, after a
  // garbage collection. A busy worker that never reached that phase between cards kept every
  // pixmap it had drawn: peak RSS went past 2 GB under PNG load.
  await nextTurn();
  const image = new Resvg(source, { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: false } }).render();
  const pixels = image.pixels;
  await drawPhotos(pixels, image.width, image.height, lifted, boxes, scale);
  // The card is an opaque rounded rectangle: only its outer corners and edges are translucent.
  return encodePng(pixels, image.width, image.height, { edge: (CARD_RADIUS + 1) * scale, offThread: inProgress > 1 });
}

/** Renders a post in one format. Pure given the assets: no network here. */
export async function renderCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  inProgress++;
  try {
    return await drawCard(post, assets, options);
  } finally {
    inProgress--;
  }
}

async function drawCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  const lifted: LiftedPhoto[] | undefined = options.format === 'png' ? [] : undefined;
  const card = buildCardTree(post, options.theme, assets, lifted);
  if (options.format === 'html') {
    const html = renderHtmlDocument(card.tree, card.fonts.faces, `Post by @${post.author.handle}`);
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  const svg = await treeToSvg(card);
  if (options.format === 'svg') return { bytes: Buffer.from(svg), contentType: CONTENT_TYPES.svg };
  return { bytes: await svgToPng(svg, options.scale ?? 2, lifted), contentType: CONTENT_TYPES.png };
}

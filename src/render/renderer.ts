import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import type { Post } from '../sources/post.ts';
import { sizedMediaUrl, type MediaFetcher } from '../sources/media.ts';
import { buildCard, cardImages, cardText, CARD_WIDTH, type Assets } from './card.ts';
import { emojiDataUri } from './emoji.ts';
import { readFontData, selectFonts, type FontSelection } from './fonts.ts';
import { ImagePrep } from './image-prep.ts';
import { encodePng } from './png.ts';
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

const sharedPrep = new ImagePrep();

/**
 * Fetches every image the card draws, at the size it is drawn (device pixels), as data URIs
 * (null: placeholder). An image drawn twice is prepared once, for the larger box.
 */
export async function loadAssets(post: Post, media: MediaFetcher, scale: number, prep: ImagePrep = sharedPrep): Promise<Assets> {
  const boxes = new Map<string, { width: number; height: number }>();
  for (const { url, width, height } of cardImages(post)) {
    const b = boxes.get(url);
    boxes.set(url, { width: Math.max(width, b?.width ?? 0), height: Math.max(height, b?.height ?? 0) });
  }
  const assets = new Map<string, string | null>();
  await Promise.all(
    [...boxes].map(async ([url, box]) => {
      const w = Math.ceil(box.width * scale);
      const h = Math.ceil(box.height * scale);
      const asset = await media.fetch(sizedMediaUrl(url, w));
      assets.set(url, asset ? await prep.prepare(asset.bytes, w, h) : null);
    }),
  );
  return assets;
}

export interface CardTree {
  tree: El;
  fonts: FontSelection;
}

/** The one card tree every format is made from. */
export function buildCardTree(post: Post, theme: ThemeName, assets: Assets): CardTree {
  const fonts = selectFonts(cardText(post), post.lang);
  const tree = buildCard(post, { theme: THEMES[theme], assets, fontFamily: fonts.families.map((f) => `"${f}"`).join(', ') });
  return { tree, fonts };
}

export async function treeToSvg({ tree, fonts }: CardTree): Promise<string> {
  const svg = await satori(tree as never, {
    width: CARD_WIDTH,
    fonts: fonts.faces.map((f) => ({ name: f.name, data: readFontData(f), weight: f.weight, style: 'normal' as const })),
    loadAdditionalAsset: async (code: string, segment: string) => (code === 'emoji' ? emojiDataUri(segment) ?? '' : []),
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
  return without.replace(/ (mask|clip-path)="url\(#(satori_(?:om|cp)-[\w-]+)\)"/g, (m, _a, id: string) => (ids.has(id) ? '' : m));
}

const rasterCache = new Map<string, string>();

/**
 * Small embedded SVG images (badges, icons, Twemoji) rasterized once at their drawn device size.
 * resvg renders every nested SVG image as a separate document on each render; a cached PNG of a
 * few hundred bytes decodes in microseconds. Only the PNG pipeline does this: SVG output keeps
 * vector images.
 */
export function rasterizeSvgImages(svg: string, scale: number): string {
  return svg.replace(
    /(<image [^>]*?width="([\d.]+)" height="([\d.]+)" href=")data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/g,
    (whole, head: string, w: string, h: string, data: string) => {
      const width = Math.round(Number(w) * scale);
      const height = Math.round(Number(h) * scale);
      if (width > 256 || height > 256 || width < 1 || height < 1) return whole;
      const key = `${width}x${height}:${createHash('sha1').update(data).digest('base64')}`;
      let png = rasterCache.get(key);
      if (!png) {
        const inner = new Resvg(Buffer.from(data, 'base64').toString('utf8'), { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } });
        png = `data:image/png;base64,${inner.render().asPng().toString('base64')}`;
        if (rasterCache.size > 5000) rasterCache.clear();
        rasterCache.set(key, png);
      }
      return `${head}${png}"`;
    },
  );
}

export async function svgToPng(svg: string, scale: number): Promise<Buffer> {
  const resvg = new Resvg(rasterizeSvgImages(svg, scale), { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: false } });
  const image = resvg.render();
  return encodePng(image.pixels, image.width, image.height);
}

/** Renders a post in one format. Pure given the assets: no network here. */
export async function renderCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  const card = buildCardTree(post, options.theme, assets);
  if (options.format === 'html') {
    const html = renderHtmlDocument(card.tree, card.fonts.faces, `Post by @${post.author.handle}`);
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  const svg = await treeToSvg(card);
  if (options.format === 'svg') return { bytes: Buffer.from(svg), contentType: CONTENT_TYPES.svg };
  return { bytes: await svgToPng(svg, options.scale ?? 2), contentType: CONTENT_TYPES.png };
}

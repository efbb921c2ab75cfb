import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import type { Post } from '../sources/post.ts';
import { canvasTree, planCanvas, type CanvasPlan } from './canvas.ts';
import { buildCard, cardText } from './card.ts';
import { dataUri, type Assets } from './assets.ts';
import { emojiDataUri } from './emoji.ts';
import { readFontData, selectFonts, type FontSelection } from './fonts.ts';
import { encodePng } from './png.ts';
import { drawPhotos, takeMarkers, type LiftedPhoto } from './photo-layer.ts';
import { renderHtmlDocument } from './html.ts';
import { layoutCard } from './layout.ts';
import { CONTENT_TYPES, defaultOptions, type RenderFormat, type RenderOptionsFull } from './options.ts';
import { isOpaque, placeOnCanvas } from './raster-canvas.ts';
import { encodeRaster } from './raster-encode.ts';
import { THEMES, type ThemeName } from './theme.ts';
import type { El } from './tree.ts';

export type { RenderFormat };
export { CONTENT_TYPES };

/** The normalized options (options.ts); those left out take their defaults. */
export interface RenderOptions extends Partial<Omit<RenderOptionsFull, 'format' | 'theme' | 'scale'>> {
  format: RenderFormat;
  theme: ThemeName;
  /** Device pixels per CSS pixel for rasters (and for choosing image sizes). */
  scale?: number;
}

export interface Rendered {
  bytes: Buffer;
  contentType: string;
}

export interface CardTree {
  tree: El;
  fonts: FontSelection;
}

/**
 * The one card tree every format is made from. With `lifted`, photos that nothing is drawn over
 * are left for the PNG pipeline to draw (photo-layer.ts) and collected there.
 */
export function buildCardTree(
  post: Post,
  options: ThemeName | Partial<RenderOptionsFull>,
  assets: Assets,
  lifted?: LiftedPhoto[],
): CardTree {
  const o = { ...defaultOptions(), ...(typeof options === 'string' ? { theme: options } : options) };
  const fonts = selectFonts(cardText(post), post.lang);
  const tree = buildCard(post, {
    theme: THEMES[o.theme],
    layout: layoutCard(o),
    options: o,
    assets,
    lifted,
    fontFamily: fonts.families.map((f) => `"${f}"`).join(', '),
  });
  return { tree, fonts };
}

export async function treeToSvg({ tree, fonts }: CardTree): Promise<string> {
  const svg = await satori(tree as never, {
    width: Number(tree.props.style?.width),
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

/** resvg's premultiplied RGBA of an SVG, lifted photos drawn in. */
async function svgToPixels(
  svg: string,
  scale: number,
  lifted: LiftedPhoto[],
): Promise<{ pixels: Buffer; width: number; height: number }> {
  const { svg: rest, boxes } = takeMarkers(svg);
  const source = rasterizeSvgImages(rest, scale);
  // resvg's images and pixmaps are freed by finalizers that Node runs as immediates, after a
  // garbage collection. A busy worker that never reached that phase between cards kept every
  // pixmap it had drawn: peak RSS went past 2 GB under PNG load.
  await nextTurn();
  const image = new Resvg(source, { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: false } }).render();
  const pixels = image.pixels;
  await drawPhotos(pixels, image.width, image.height, lifted, boxes, scale);
  return { pixels, width: image.width, height: image.height };
}

/** A bare card as PNG: an opaque rounded rectangle, so only its corners and edges can be translucent. */
export async function svgToPng(svg: string, scale: number, lifted: LiftedPhoto[] = [], radius = 16): Promise<Buffer> {
  const { pixels, width, height } = await svgToPixels(svg, scale, lifted);
  return encodePng(pixels, width, height, { edge: (radius + 1) * scale, offThread: inProgress > 1 });
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

const SVG_HEIGHT = /^<svg[^>]*? height="([\d.]+)"/;

// satori fills a box with a gradient through a pattern holding one rect of the gradient; resvg
// draws a pattern as an offscreen layer (74 ms for a 4:5 canvas at 2x). The rect is filled with
// the gradient itself: the same picture, since both use the same bounding box.
const GRADIENT_PATTERN =
  /<pattern id="([\w-]+)" x="0" y="0" width="1" height="1" patternUnits="objectBoundingBox">(<linearGradient id="([\w-]+)"[^>]*>(?:<stop [^>]*\/>)+<\/linearGradient>)<rect x="0" y="0" width="[\d.]+" height="[\d.]+" fill="url\(#\3\)"\/><\/pattern>/g;

function unwrapGradients(svg: string): string {
  const swaps = new Map<string, string>();
  const out = svg.replace(GRADIENT_PATTERN, (_m, pattern: string, gradient: string, id: string) => {
    swaps.set(pattern, id);
    return gradient;
  });
  return swaps.size
    ? out.replace(/fill="url\(#([\w-]+)\)"/g, (m, id: string) => (swaps.has(id) ? `fill="url(#${swaps.get(id)})"` : m))
    : svg;
}

/**
 * The card's SVG placed on the container's: the container is drawn alone (background, image)
 * and the card's drawing added as a translated, scaled group, so the card is laid out once.
 * (A nested <svg> would be clipped to its viewport: resvg draws that as a canvas-sized layer.)
 * satori numbers its ids per document: the container's are renamed apart from the card's.
 */
async function composeSvg(cardSvg: string, plan: CanvasPlan, card: CardTree, background?: string): Promise<string> {
  const outer = unwrapGradients(
    (await treeToSvg({ tree: canvasTree(plan, background), fonts: card.fonts })).replace(/satori_/g, 'satori_c_'),
  );
  const transform = `translate(${plan.x} ${plan.y})${plan.scale === 1 ? '' : ` scale(${plan.scale})`}`;
  const inner = cardSvg.replace(/^<svg[^>]*>/, `<g transform="${transform}">`).replace(/<\/svg>\s*$/, '</g>');
  return outer.replace(/<\/svg>\s*$/, `${inner}</svg>`);
}

async function drawCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  const o: RenderOptionsFull = { ...defaultOptions(), ...options };
  const raster = o.format !== 'svg' && o.format !== 'html';
  const lifted: LiftedPhoto[] | undefined = raster ? [] : undefined;
  const card = buildCardTree(post, o, assets, lifted);
  const background = o.backgroundImage ? assets.get(o.backgroundImage) : undefined;
  const backgroundUri = background ? dataUri(background) : undefined;
  const needsContainer = planCanvas(o, o.width, 1) !== null;
  if (o.format === 'html' && !needsContainer) {
    const html = renderHtmlDocument(card.tree, card.fonts.faces, `Post by @${post.author.handle}`);
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  const svg = await treeToSvg(card);
  const plan = needsContainer ? planCanvas(o, o.width, Number(SVG_HEIGHT.exec(svg)?.[1])) : null;
  if (plan && o.format === 'html') {
    const html = renderHtmlDocument(
      canvasTree(plan, backgroundUri, card.tree),
      card.fonts.faces,
      `Post by @${post.author.handle}`,
    );
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  if (o.format === 'svg') {
    const out = plan ? await composeSvg(svg, plan, card, backgroundUri) : svg;
    return { bytes: Buffer.from(out), contentType: CONTENT_TYPES.svg };
  }
  if (o.format === 'png' && !plan)
    return { bytes: await svgToPng(svg, o.scale, lifted, o.borderRadius), contentType: CONTENT_TYPES.png };
  const drawn = await svgToPixels(svg, o.scale, lifted ?? []);
  const image = plan ? await placeOnCanvas(drawn, plan, o.scale, background?.bytes) : drawn;
  // An opaque container leaves no translucent pixel; a bare card only at its rounded edges.
  const opaque = plan && (background || isOpaque(plan.background));
  const bytes =
    o.format === 'png'
      ? await encodePng(image.pixels, image.width, image.height, {
          edge: opaque ? 0 : undefined,
          offThread: inProgress > 1,
        })
      : await encodeRaster(image, o.format as 'jpeg' | 'webp', o.quality, THEMES[o.theme].background);
  return { bytes, contentType: CONTENT_TYPES[o.format] };
}

// The layout engine: Takumi (Rust; taffy layout, parley text layout with HarfBuzz-class shaping
// and the Unicode bidi algorithm). It takes the card tree as its own node tree and draws PNG,
// JPEG and WebP from one raster, or a vector SVG (glyph outlines, embedded images).
//
// Threat model: post text reaches the engine only as text nodes (never markup or CSS), and
// images only as bytes prepared by sharp or shipped with the package (no URL is ever fetched).
import { Renderer } from '@takumi-rs/core';
import { fitTree } from './engine-fits.ts';
import { type FontFace, familyFaces, rangesOf, readFontData } from './fonts.ts';
import { BASE_CSS, type El } from './tree.ts';

export interface EngineCard {
  tree: El;
  faces: FontFace[];
  /** CSS px. */
  width: number;
}

export interface Raster {
  rgba: Buffer;
  width: number;
  height: number;
}

let engine: Renderer | null = null;
const registered = new Map<string, Promise<unknown>>();

/**
 * This thread's engine with `faces` registered (each face once per thread, when first needed).
 * A face comes with the rest of its family, one after another in fallback order: the engine
 * tries a family's faces in the order they were registered, and a card is then drawn the same
 * whatever the thread drew before it.
 */
async function engineWith(faces: FontFace[]): Promise<Renderer> {
  engine ??= new Renderer();
  const renderer = engine;
  const register = (face: FontFace, after: Promise<unknown>) => {
    let done = registered.get(face.name);
    if (!done) {
      done = after.then(() =>
        renderer.registerFont({
          name: face.family,
          data: readFontData(face),
          weight: face.weight,
          style: 'normal',
          unicodeRange: rangesOf(face),
        }),
      );
      registered.set(face.name, done);
    }
    return done;
  };
  // A face registered already came with its family: the family is not looked up again per card.
  await Promise.all(
    faces.map(
      (face) =>
        registered.get(face.name) ??
        familyFaces(face).reduce<Promise<unknown>>((after, f) => register(f, after), Promise.resolve()),
    ),
  );
  return renderer;
}

type RasterFormat = 'raw' | 'png' | 'jpeg' | 'webp';

// The engine refuses a canvas over 64 megapixels; a card that tall (tens of thousands of lines)
// is drawn whole at fewer device pixels instead of failing. Its WebP encoder needs about 17 bytes
// a pixel against 5 for the others, so a WebP canvas gets fewer: the render process stays well
// under its memory limit.
const MAX_PIXELS: Record<RasterFormat, number> = { raw: 60e6, png: 60e6, jpeg: 60e6, webp: 30e6 };

/** The longest side each encoder takes (WebP's and JPEG's headers hold 14 and 16 bits). */
const MAX_SIDE: Record<RasterFormat, number> = {
  raw: Number.POSITIVE_INFINITY,
  png: Number.POSITIVE_INFINITY,
  jpeg: 65_535,
  webp: 16_383,
};

/**
 * Renders at `scale`, or, for a card too large for the engine or its format's encoder
 * (MAX_PIXELS, MAX_SIDE), at the largest scale that fits: in sixteenths from 1 up, else hundredths.
 */
async function renderScaled(renderer: Renderer, card: EngineCard, scale: number, format: RasterFormat, quality = 90) {
  const { node, images } = await fitTree(renderer, card.tree);
  const options = (at: number) => ({
    width: Math.round(card.width * at),
    devicePixelRatio: at,
    images,
    css: [BASE_CSS],
  });
  const draw = async (at: number) => ({
    bytes: await renderer.render(node, {
      ...options(at),
      format,
      ...(format === 'jpeg' || format === 'webp' ? { quality } : {}),
    }),
    width: Math.round(card.width * at),
  });
  // Measured at the scale tried, as drawn: the engine snaps each line to whole device pixels, so
  // a card's height does not follow its scale exactly.
  const fittedScale = async () => {
    let at = scale;
    for (let tries = 0; tries < 8; tries++) {
      const { width, height } = await renderer.measure(node, options(at));
      const fit = Math.min(
        MAX_SIDE[format] / Math.max(1, width, height),
        Math.sqrt(MAX_PIXELS[format] / Math.max(1, width * height)),
      );
      if (fit >= 1) break;
      // Sixteenths from 1 up: at scales between them (1.83, 1.86) the engine drew emoji ever
      // slower as the card grew, minutes for a note of emoji, where a sixteenth draws it in seconds.
      const fitted = at * fit;
      at = fitted >= 1 ? Math.floor(fitted * 16) / 16 : Math.floor(fitted * 100) / 100;
    }
    return at;
  };
  // The engine itself refuses what is too large for the others: only a refused card is measured.
  if (format === 'webp') return draw(await fittedScale());
  try {
    return await draw(scale);
  } catch (err) {
    const at = await fittedScale();
    // A card that fits failed for another reason.
    if (at >= scale || at < 0.01) throw err;
    return draw(at);
  }
}

/** The card's pixels at `scale` device pixels per CSS pixel: straight-alpha RGBA, row-major. */
export async function rasterize(card: EngineCard, scale: number): Promise<Raster> {
  const renderer = await engineWith(card.faces);
  const { bytes: rgba, width } = await renderScaled(renderer, card, scale, 'raw');
  return { rgba, width, height: rgba.length / (width * 4) };
}

/** The card's laid-out size in CSS px, without drawing it. */
export async function measureCard(card: EngineCard): Promise<{ width: number; height: number }> {
  const renderer = await engineWith(card.faces);
  const { node, images } = await fitTree(renderer, card.tree);
  const measured = await renderer.measure(node, { width: card.width, images, css: [BASE_CSS] });
  return { width: measured.width, height: measured.height };
}

/**
 * The same raster encoded by the engine: JPEG and WebP (quality 90 unless given). Its PNG encoder is slower
 * than ours on photo cards (png.ts), so PNG is served from rasterize(). JPEG has no alpha: what
 * is transparent (the card's outer corners) comes out black unless the tree paints it.
 */
export async function encodeRaster(
  card: EngineCard,
  scale: number,
  format: 'png' | 'jpeg' | 'webp',
  quality = 90,
): Promise<Buffer> {
  const renderer = await engineWith(card.faces);
  return (await renderScaled(renderer, card, scale, format, quality)).bytes;
}

/** The card as a vector SVG document. */
export async function vectorize(card: EngineCard): Promise<string> {
  const renderer = await engineWith(card.faces);
  const { node, images } = await fitTree(renderer, card.tree);
  return renderer.renderSvg(node, { width: card.width, images, css: [BASE_CSS] });
}

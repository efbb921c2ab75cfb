import type { Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { canvasTree, planCanvas } from './canvas.ts';
import { buildCard, cardText } from './card.ts';
import { isEmoji } from './emoji.ts';
import { encodeRaster, measureCard, rasterize, vectorize, type EngineCard } from './engine-takumi.ts';
import { selectFonts, type FontSelection } from './fonts.ts';
import { renderHtmlDocument } from './html.ts';
import { layoutCard } from './layout.ts';
import { CONTENT_TYPES, defaultOptions, hasContainer, type RenderFormat, type RenderOptionsFull } from './options.ts';
import { renderContainerPng } from './container-png.ts';
import { encodePng } from './png.ts';
import { cleanText } from './text.ts';
import { THEMES, type ThemeName } from './theme.ts';
import { box, type El } from './tree.ts';

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

// A pictograph alone is drawn as an emoji picture whenever Twemoji has one: no font is loaded
// for it. Sequences (flags, keycaps, modifiers) are pictures as a whole.
const isPicture = (cp: number) => isEmoji(String.fromCodePoint(cp)) || (cp >= 0x1f1e6 && cp <= 0x1f1ff);

const reported = new Set<number>();
/** Code points named in one warning: a post of private-use characters would make it megabytes. */
const NAMED = 20;

/** A character no shipped font draws: logged once per thread with its code point. */
function reportMissing(post: Post, missing: number[]): void {
  const fresh = missing.filter((cp) => !reported.has(cp));
  if (fresh.length === 0) return;
  for (const cp of fresh) reported.add(cp);
  const codePoints = fresh.slice(0, NAMED).map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
  const more = fresh.length > NAMED ? ` and ${fresh.length - NAMED} more` : '';
  process.emitWarning(`no glyph for ${codePoints.join(' ')}${more} (post ${post.id})`, { code: 'POSTSHOT_NO_GLYPH' });
}

/** The one card tree every format is made from (without the container around it). */
export function buildCardTree(post: Post, options: ThemeName | Partial<RenderOptionsFull>, assets: Assets): CardTree {
  const o = { ...defaultOptions(), ...(typeof options === 'string' ? { theme: options } : options) };
  const fonts = selectFonts(cleanText(cardText(post)), post.lang, isPicture);
  if (fonts.missing.length) reportMissing(post, fonts.missing);
  const tree = buildCard(post, {
    theme: THEMES[o.theme],
    layout: layoutCard(o),
    options: o,
    assets,
    fontFamily: fonts.families.map((f) => `"${f}"`).join(', '),
  });
  return { tree, fonts };
}

/**
 * The card on its container when the options ask for one: one tree, so the engine draws both in
 * one pass. The card's height is measured only when the canvas size does not follow from it
 * (aspectRatio, height), to know whether the card must be scaled down.
 */
async function drawnTree(card: CardTree, o: RenderOptionsFull, assets: Assets): Promise<EngineCard> {
  const bare: EngineCard = { tree: card.tree, faces: card.fonts.faces, width: o.width };
  const fixed = o.aspectRatio !== 'auto' || o.height !== 'auto';
  const plan = planCanvas(o, o.width, fixed ? (await measureCard(bare)).height : null);
  if (!plan) return bare;
  const background = o.backgroundImage ? (assets.get(o.backgroundImage) ?? undefined) : undefined;
  return { ...bare, tree: canvasTree(plan, background, card.tree), width: plan.width };
}

/** JPEG has no alpha: what is transparent is laid on the theme's background instead of black. */
function flattened(card: EngineCard, theme: ThemeName): EngineCard {
  const tree = box({ width: card.width, backgroundColor: THEMES[theme].background }, card.tree);
  return { ...card, tree };
}

/** A card on a container is laid on it after drawing (container-png.ts); else one tree is drawn. */
async function renderPng(card: CardTree, o: RenderOptionsFull, assets: Assets): Promise<Buffer> {
  if (hasContainer(o)) {
    const image = o.backgroundImage ? (assets.get(o.backgroundImage) ?? undefined) : undefined;
    const bare = { tree: card.tree, faces: card.fonts.faces, width: o.width };
    const png = await renderContainerPng(bare, o, image);
    if (png) return png;
  }
  return encodePng(await rasterize(await drawnTree(card, o, assets), o.scale));
}

/** Renders a post in one format. Pure given the assets: no network here. */
export async function renderCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  const o: RenderOptionsFull = { ...defaultOptions(), ...options };
  const card = buildCardTree(post, o, assets);
  if (o.format === 'png') return { bytes: await renderPng(card, o, assets), contentType: CONTENT_TYPES.png };
  const drawn = await drawnTree(card, o, assets);
  if (o.format === 'html') {
    const html = renderHtmlDocument(drawn.tree, card.fonts.faces, `Post by @${post.author.handle}`);
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  if (o.format === 'svg') {
    return { bytes: Buffer.from(await vectorize(drawn)), contentType: CONTENT_TYPES.svg };
  }
  const source = o.format === 'jpeg' ? flattened(drawn, o.theme) : drawn;
  return { bytes: await encodeRaster(source, o.scale, o.format, o.quality), contentType: CONTENT_TYPES[o.format] };
}

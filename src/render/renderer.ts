import type { Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { buildCard, cardText, CARD_WIDTH } from './card.ts';
import { isEmoji } from './emoji.ts';
import { rasterize, vectorize, type EngineCard } from './engine-takumi.ts';
import { selectFonts, type FontSelection } from './fonts.ts';
import { renderHtmlDocument } from './html.ts';
import { cleanText } from './text.ts';
import { encodePng } from './png.ts';
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

// A pictograph alone is drawn as an emoji picture whenever Twemoji has one: no font is loaded
// for it. Sequences (flags, keycaps, modifiers) are pictures as a whole.
const isPicture = (cp: number) => isEmoji(String.fromCodePoint(cp)) || (cp >= 0x1f1e6 && cp <= 0x1f1ff);

const reported = new Set<number>();

/** A character no shipped font draws: logged once per thread with its code point. */
function reportMissing(post: Post, missing: number[]): void {
  const fresh = missing.filter((cp) => !reported.has(cp));
  if (fresh.length === 0) return;
  for (const cp of fresh) reported.add(cp);
  const codePoints = fresh.map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
  process.emitWarning(`no glyph for ${codePoints.join(' ')} (post ${post.id})`, { code: 'POSTSHOT_NO_GLYPH' });
}

/** The one card tree every format is made from. */
export function buildCardTree(post: Post, theme: ThemeName, assets: Assets): CardTree {
  const fonts = selectFonts(cleanText(cardText(post)), post.lang, isPicture);
  if (fonts.missing.length) reportMissing(post, fonts.missing);
  const tree = buildCard(post, {
    theme: THEMES[theme],
    assets,
    fontFamily: fonts.families.map((f) => `"${f}"`).join(', '),
  });
  return { tree, fonts };
}

function engineCard({ tree, fonts }: CardTree): EngineCard {
  return { tree, faces: fonts.faces, width: CARD_WIDTH };
}

/** Renders a post in one format. Pure given the assets: no network here. */
export async function renderCard(post: Post, assets: Assets, options: RenderOptions): Promise<Rendered> {
  const card = buildCardTree(post, options.theme, assets);
  if (options.format === 'html') {
    const html = renderHtmlDocument(card.tree, card.fonts.faces, `Post by @${post.author.handle}`);
    return { bytes: Buffer.from(html), contentType: CONTENT_TYPES.html };
  }
  if (options.format === 'svg') {
    return { bytes: Buffer.from(await vectorize(engineCard(card))), contentType: CONTENT_TYPES.svg };
  }
  const { rgba, width, height } = await rasterize(engineCard(card), options.scale ?? 2);
  return { bytes: await encodePng(rgba, width, height), contentType: CONTENT_TYPES.png };
}

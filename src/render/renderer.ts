import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import type { Post } from '../sources/post.ts';
import { sizedMediaUrl, type MediaFetcher } from '../sources/media.ts';
import { buildCard, cardImages, cardText, CARD_WIDTH, type Assets } from './card.ts';
import { emojiDataUri } from './emoji.ts';
import { readFontData, selectFonts, type FontSelection } from './fonts.ts';
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

/** Fetches every image the card draws, at the size it is drawn, as data URIs (null: placeholder). */
export async function loadAssets(post: Post, media: MediaFetcher, scale: number): Promise<Assets> {
  const assets = new Map<string, string | null>();
  await Promise.all(
    cardImages(post).map(async ({ url, width }) => {
      if (assets.has(url)) return;
      assets.set(url, null);
      const asset = await media.fetch(sizedMediaUrl(url, Math.ceil(width * scale)));
      if (asset) assets.set(url, `data:${asset.contentType};base64,${asset.bytes.toString('base64')}`);
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
  return satori(tree as never, {
    width: CARD_WIDTH,
    fonts: fonts.faces.map((f) => ({ name: f.name, data: readFontData(f), weight: f.weight, style: 'normal' as const })),
    loadAdditionalAsset: async (code: string, segment: string) => (code === 'emoji' ? emojiDataUri(segment) ?? '' : []),
  });
}

export function svgToPng(svg: string, scale: number): Buffer {
  const resvg = new Resvg(svg, { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: false } });
  return resvg.render().asPng();
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
  return { bytes: svgToPng(svg, options.scale ?? 2), contentType: CONTENT_TYPES.png };
}

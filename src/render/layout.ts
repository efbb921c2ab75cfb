// Card geometry, computed once from the options: the card tree draws with it and the image-size
// selection (cardImages) fetches with it, so an image is always prepared at the box it fills.
import type { Media } from '../sources/post.ts';
import type { RenderOptionsFull } from './options.ts';

export const PAD = 16;
export const BORDER = 1;
export const QUOTE_PAD = 12;
export const GRID_GAP = 2;
/** The side thumbnail of a small link card, whatever the card width. */
export const THUMBNAIL = 130;
/** The card's shape when no options are given (X's embed). */
export const DEFAULT_WIDTH = 550;
export const DEFAULT_RADIUS = 16;

export type LayoutOptions = Pick<RenderOptionsFull, 'width' | 'borderRadius' | 'mediaLayout' | 'showMedia'>;

export interface CardLayout {
  /** Card width, border included (CSS px). */
  width: number;
  radius: number;
  /** Content width inside the card's padding and border. */
  inner: number;
  /** Content width inside a quoted post's frame. */
  quoteInner: number;
  mediaLayout: 'grid' | 'vertical';
  showMedia: boolean;
}

export function layoutCard(o: LayoutOptions): CardLayout {
  const inner = o.width - 2 * PAD - 2 * BORDER;
  return {
    width: o.width,
    radius: o.borderRadius,
    inner,
    quoteInner: inner - 2 * QUOTE_PAD - 2 * BORDER,
    mediaLayout: o.mediaLayout,
    showMedia: o.showMedia,
  };
}

export const DEFAULT_LAYOUT = layoutCard({
  width: DEFAULT_WIDTH,
  borderRadius: DEFAULT_RADIUS,
  mediaLayout: 'grid',
  showMedia: true,
});

/** Media grids are drawn inside a 1px border: the images get the width less 2. */
export const gridInner = (outer: number) => outer - 2 * BORDER;

export interface Placed {
  m: Media;
  x: number;
  y: number;
  w: number;
  h: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** Height over width of a media item, clamped as X clamps a single item; 16:9 when unknown. */
function ratioOf(m: Media, lo: number, hi: number): number {
  return m.width && m.height ? clamp(m.height / m.width, lo, hi) : 9 / 16;
}

/**
 * Where each media item goes. grid is X's: one item at its aspect (clamped), two side by side,
 * three as one tall and two stacked, four as 2×2. vertical stacks every item full width at its
 * own aspect ratio (clamped so a panorama or a strip stays visible).
 */
export function placeMedia(media: Media[], width: number, mode: 'grid' | 'vertical' = 'grid'): Placed[] {
  const items = media.slice(0, 4);
  if (mode === 'vertical') {
    let y = 0;
    return items.map((m) => {
      const h = Math.round(width * ratioOf(m, 0.25, 2));
      const placed = { m, x: 0, y, w: width, h };
      y += h + GRID_GAP;
      return placed;
    });
  }
  if (items.length === 1)
    return [{ m: items[0], x: 0, y: 0, w: width, h: Math.round(width * ratioOf(items[0], 0.5, 1.25)) }];
  const height = Math.round((width * 9) / 16);
  const half = (width - GRID_GAP) / 2;
  const halfH = (height - GRID_GAP) / 2;
  const left = Math.floor(half);
  const right = width - GRID_GAP - left;
  const top = Math.floor(halfH);
  const bottom = height - GRID_GAP - top;
  if (items.length === 2)
    return items.map((m, i) => ({ m, x: i ? left + GRID_GAP : 0, y: 0, w: i ? right : left, h: height }));
  if (items.length === 3) {
    return [
      { m: items[0], x: 0, y: 0, w: left, h: height },
      { m: items[1], x: left + GRID_GAP, y: 0, w: right, h: top },
      { m: items[2], x: left + GRID_GAP, y: top + GRID_GAP, w: right, h: bottom },
    ];
  }
  return items.map((m, i) => ({
    m,
    x: i % 2 ? left + GRID_GAP : 0,
    y: i >= 2 ? top + GRID_GAP : 0,
    w: i % 2 ? right : left,
    h: i >= 2 ? bottom : top,
  }));
}

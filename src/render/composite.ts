// Lays a card's raster over a container's pixels (straight alpha, "source over").
import type { Raster } from './engine-takumi.ts';

/** Straight-alpha "over" of one pixel: src at `s` in `src`, onto dst at `d` in `dst`. */
function blendPixel(src: Uint8Array, s: number, dst: Uint8Array, d: number): void {
  const a = src[s + 3];
  if (a === 0) return;
  if (a === 255) {
    dst[d] = src[s];
    dst[d + 1] = src[s + 1];
    dst[d + 2] = src[s + 2];
    dst[d + 3] = 255;
    return;
  }
  const below = (dst[d + 3] * (255 - a)) / 255;
  const out = a + below;
  for (let k = 0; k < 3; k++) dst[d + k] = Math.round((src[s + k] * a + dst[d + k] * below) / out);
  dst[d + 3] = Math.round(out);
}

function blendRun(card: Raster, s: number, rows: Buffer, d: number, pixels: number): void {
  for (let i = 0; i < pixels * 4; i += 4) blendPixel(card.rgba, s + i, rows, d + i);
}

/**
 * Lays `card` over RGBA rows (`rowBytes` each) with its top left at device pixel (x, y) of the
 * rows. The card is an opaque rounded rectangle (the themes' colours are
 * opaque): only its corners, `corner` pixels square, its side columns and its last rows (a
 * height that is not whole device pixels) can show what is below; the rest is copied.
 */
export function layOver(rows: Buffer, rowBytes: number, card: Raster, x: number, y: number, corner: number): void {
  const stride = card.width * 4;
  const side = Math.min(corner, Math.ceil(card.width / 2));
  const EDGE = 2;
  for (let r = 0; r < card.height; r++) {
    const s = r * stride;
    const d = (y + r) * rowBytes + x * 4;
    if (r >= card.height - EDGE) {
      blendRun(card, s, rows, d, card.width);
      continue;
    }
    const blended = r < corner || r >= card.height - corner ? side : Math.min(EDGE, side);
    blendRun(card, s, rows, d, blended);
    card.rgba.copy(rows, d + blended * 4, s + blended * 4, s + stride - blended * 4);
    blendRun(card, s + stride - blended * 4, rows, d + stride - blended * 4, blended);
  }
}

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
 * Writes into `out` the RGBA rows of `background` (`rowBytes` each, as many as `out` holds) with
 * `card` laid over, its top left at device pixel (x, y) of the rows. The card is an opaque rounded
 * rectangle (the themes' colours are opaque): only its corners, `corner` pixels square, its side
 * columns and its last rows (a height that is not whole device pixels) can show what is below, so
 * only there and around the card is the background copied; the rest is the card's own pixels.
 */
export function layOver(
  background: Buffer,
  out: Buffer,
  rowBytes: number,
  card: Raster,
  x: number,
  y: number,
  corner: number,
): void {
  const stride = card.width * 4;
  const side = Math.min(corner, Math.ceil(card.width / 2));
  const EDGE = 2;
  const rows = out.length / rowBytes;
  for (let row = 0; row < rows; row++) {
    const start = row * rowBytes;
    const r = row - y;
    if (r < 0 || r >= card.height - EDGE) {
      background.copy(out, start, start, start + rowBytes);
      if (r >= 0 && r < card.height) blendRun(card, r * stride, out, start + x * 4, card.width);
      continue;
    }
    const s = r * stride;
    const d = start + x * 4;
    const blended = r < corner || r >= card.height - corner ? side : Math.min(EDGE, side);
    background.copy(out, start, start, d + blended * 4);
    background.copy(out, d + stride - blended * 4, d + stride - blended * 4, start + rowBytes);
    blendRun(card, s, out, d, blended);
    card.rgba.copy(out, d + blended * 4, s + blended * 4, s + stride - blended * 4);
    blendRun(card, s + stride - blended * 4, out, d + stride - blended * 4, blended);
  }
}

// Raster formats with a container: the card is rasterized at its own size, as without one, and
// laid over the container's pixels here. Rasterizing the card on the whole canvas cost resvg
// time in proportion to the canvas area (its layers are canvas-sized): 2-3x the plain card for
// a short post at 4:5. Pixels are premultiplied RGBA, as resvg's.
import type { CanvasPlan } from './canvas.ts';
import sharp from './sharp-setup.ts';

export interface Pixels {
  pixels: Buffer;
  width: number;
  height: number;
}

type Rgba = [number, number, number, number];

const RGBA = /rgba\((\d+),(\d+),(\d+),([\d.]+)\)/;

function parseRgba(css: string): Rgba {
  const m = RGBA.exec(css);
  if (!m) throw new Error(`not a canonical colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
}

/** A premultiplied RGBA pixel packed little-endian for a Uint32Array. */
function pack([r, g, b, a]: Rgba): number {
  const p = (c: number) => Math.round(c * a);
  return (p(r) | (p(g) << 8) | (p(b) << 16) | (Math.round(a * 255) << 24)) >>> 0;
}

/** True when every colour of a canonical background is opaque: no pixel of the canvas can be translucent. */
export function isOpaque(css: string): boolean {
  return [...css.matchAll(/rgba\([^)]*,([\d.]+)\)/g)].every((m) => Number(m[1]) === 1);
}

const LUT_SIZE = 1024;

/** The gradient's colours at LUT_SIZE points along its line, premultiplied and packed. */
function gradientLut(stops: Array<{ color: Rgba; at?: number }>): Uint32Array {
  // CSS: a missing first/last position is 0/100%, missing middle ones are spread evenly, and a
  // position below an earlier one is raised to it.
  const at = stops.map((s) => s.at);
  at[0] ??= 0;
  at[at.length - 1] ??= 1;
  for (let i = 1; i < at.length; i++) {
    if (at[i] === undefined) {
      let j = i;
      while (at[j] === undefined) j++;
      for (let k = i; k < j; k++) at[k] = at[i - 1]! + ((at[j]! - at[i - 1]!) * (k - i + 1)) / (j - i + 1);
    }
    at[i] = Math.max(at[i]!, at[i - 1]!);
  }
  const pre = stops.map(({ color: [r, g, b, a] }) => [r * a, g * a, b * a, a * 255]);
  const lut = new Uint32Array(LUT_SIZE);
  for (let i = 0; i < LUT_SIZE; i++) {
    const t = i / (LUT_SIZE - 1);
    let k = 0;
    while (k < at.length - 2 && t > at[k + 1]!) k++;
    const span = at[k + 1]! - at[k]!;
    const f = t <= at[k]! ? 0 : t >= at[k + 1]! ? 1 : span > 0 ? (t - at[k]!) / span : 1;
    const c = pre[k].map((v, ch) => Math.round(v + (pre[k + 1][ch] - v) * f));
    lut[i] = (c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)) >>> 0;
  }
  return lut;
}

/** Fills `out` (width×height) with a canonical linear-gradient, by CSS's geometry. */
function fillGradient(out: Uint32Array, width: number, height: number, css: string): void {
  const [, angleText, rest] = /^linear-gradient\(([-\d.]+)deg, (.*)\)$/.exec(css)!;
  const stops = rest.split(/,\s(?=rgba)/).map((s) => {
    const pct = /\)\s+([\d.]+)%$/.exec(s);
    return { color: parseRgba(s), at: pct ? Number(pct[1]) / 100 : undefined };
  });
  const lut = gradientLut(stops);
  const rad = (Number(angleText) * Math.PI) / 180;
  const dx = Math.sin(rad);
  const dy = -Math.cos(rad);
  const length = Math.abs(width * dx) + Math.abs(height * dy);
  const scale = (LUT_SIZE - 1) / length;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const base = ((y + 0.5 - height / 2) * dy - (width / 2) * dx) / length + 0.5;
    let t = base * (LUT_SIZE - 1) + 0.5 * dx * scale;
    const step = dx * scale;
    for (let x = 0; x < width; x++, t += step) {
      out[row + x] = lut[t <= 0 ? 0 : t >= LUT_SIZE - 1 ? LUT_SIZE - 1 : t | 0];
    }
  }
}

/** The container's own pixels: its colour or gradient, then its image (cover) over it. */
async function containerPixels(plan: CanvasPlan, scale: number, image?: Uint8Array): Promise<Pixels> {
  const width = Math.round(plan.width * scale);
  const height = Math.round(plan.height * scale);
  if (image) {
    const { data } = await sharp(image)
      .resize(width, height, { fit: 'cover', position: 'centre' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { pixels: data, width, height };
  }
  const out = { pixels: Buffer.allocUnsafe(width * height * 4), width, height };
  if (plan.background.startsWith('linear-gradient(')) fillGradient(words(out), width, height, plan.background);
  else words(out).fill(pack(parseRgba(plan.background)));
  return out;
}

const words = (p: Pixels) => new Uint32Array(p.pixels.buffer, p.pixels.byteOffset, p.width * p.height);

/** Lays `src` over `dst` at (left, top), premultiplied source-over. Most card pixels are opaque: one word copied. */
function over(dst: Pixels, src: Pixels, left: number, top: number): void {
  const d = dst.pixels;
  const s = src.pixels;
  const d32 = words(dst);
  const s32 = words(src);
  const x0 = Math.max(0, -left);
  const x1 = Math.min(src.width, dst.width - left);
  for (let y = Math.max(0, -top); y < Math.min(src.height, dst.height - top); y++) {
    const srow = y * src.width;
    const drow = (y + top) * dst.width + left;
    for (let x = x0; x < x1; x++) {
      const w = s32[srow + x];
      const a = w >>> 24;
      if (a === 255) d32[drow + x] = w;
      else if (a !== 0) {
        const si = (srow + x) * 4;
        const di = (drow + x) * 4;
        const k = (255 - a) / 255;
        for (let c = 0; c < 4; c++) d[di + c] = Math.min(255, s[si + c] + Math.round(d[di + c] * k));
      }
    }
  }
}

/** The card's pixels (drawn at `scale`) placed on the container of `plan`. */
export async function placeOnCanvas(
  card: Pixels,
  plan: CanvasPlan,
  scale: number,
  image?: Uint8Array,
): Promise<Pixels> {
  const canvas = await containerPixels(plan, scale, image);
  let placed = card;
  if (plan.scale !== 1) {
    const width = Math.max(1, Math.round(card.width * plan.scale));
    const height = Math.max(1, Math.round(card.height * plan.scale));
    const data = await sharp(card.pixels, {
      raw: { width: card.width, height: card.height, channels: 4, premultiplied: true },
    })
      .resize(width, height, { kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    // sharp hands back straight alpha: premultiplied again where it matters (the card's edges).
    for (let i = 0; i < data.length; i += 4) {
      const a = data[i + 3];
      if (a !== 255) for (let c = 0; c < 3; c++) data[i + c] = Math.round((data[i + c] * a) / 255);
    }
    placed = { pixels: data, width, height };
  }
  over(canvas, placed, Math.round(plan.x * scale), Math.round(plan.y * scale));
  return canvas;
}

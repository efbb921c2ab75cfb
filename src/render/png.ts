import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';
import { assemblePng, writeScanlines } from '../util/png-encode.ts';

const deflateAsync = promisify(deflate);

// Scanline buffers are reused from render to render (per thread): a fresh 5 MB buffer each time
// cost page faults and brought V8's external-memory garbage collections closer. One per PNG
// being deflated at once.
const spare: Buffer[] = [];

function takeScanlineBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length >= size);
  return i >= 0 ? spare.splice(i, 1)[0] : Buffer.allocUnsafe(Math.ceil(size * 1.25));
}

export interface PngOptions {
  edge?: number;
  /** Deflate on libuv's thread pool instead of this thread. */
  offThread?: boolean;
}

/**
 * PNG from resvg's premultiplied RGBA. Scanlines are unfiltered and deflated at level 3 by
 * Node's zlib: for a 1100×1132 photo card 8.9 ms / 287 KB, against 15.8 ms /
 * 264 KB for libvips at the same level and 14.0 ms / 368 KB for resvg's own encoder. Adaptive
 * filtering would shrink photos by a fifth at four times the time.
 *
 * `offThread` (a worker drawing two cards at once) deflates on libuv's thread pool.
 *
 * `edge`: when set, only pixels within that many device pixels of the image's border can be
 * partly transparent (a card: an opaque rounded rectangle filling the canvas), and only those
 * are looked at when converting to straight alpha. Scanning every pixel costs 1.3-3 ms.
 */
export async function encodePng(
  pixels: Buffer,
  width: number,
  height: number,
  { edge, offThread = false }: PngOptions = {},
): Promise<Buffer> {
  const stride = width * 4;
  const buffer = takeScanlineBuffer((stride + 1) * height);
  const rows = buffer.subarray(0, (stride + 1) * height);
  writeScanlines(pixels, stride, height, rows);
  const band = edge === undefined ? width : Math.min(width, Math.ceil(edge));
  for (let y = 0; y < height; y++) {
    const full = y < band || y >= height - band || band * 2 >= width;
    if (full) unpremultiplyRun(pixels, rows, y, 0, width, width);
    else {
      unpremultiplyRun(pixels, rows, y, 0, band, width);
      unpremultiplyRun(pixels, rows, y, width - band, width, width);
    }
  }
  try {
    const options = { level: 3, chunkSize: 1 << 20 };
    return assemblePng(width, height, 6, offThread ? await deflateAsync(rows, options) : deflateSync(rows, options));
  } finally {
    if (spare.length < 2) spare.push(buffer);
  }
}

/** Straight-alpha values into `rows` for the partly transparent pixels of row y, x in [from, to). */
function unpremultiplyRun(pixels: Buffer, rows: Buffer, y: number, from: number, to: number, width: number): void {
  for (let x = from; x < to; x++) {
    const src = (y * width + x) * 4;
    const a = pixels[src + 3];
    if (a === 255 || a === 0) continue;
    const dst = y * (width * 4 + 1) + 1 + x * 4;
    for (let c = 0; c < 3; c++) rows[dst + c] = Math.min(255, Math.round((pixels[src + c] * 255) / a));
  }
}

import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer[] {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))));
  return [head, data, crc];
}

/**
 * A PNG file around already deflated scanlines (each row prefixed by its filter byte).
 * `colorType` 2 is RGB, 6 is RGBA; 8 bits per channel.
 */
export function assemblePng(width: number, height: number, colorType: 2 | 6, idat: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  return Buffer.concat([SIGNATURE, ...chunk('IHDR', ihdr), ...chunk('IDAT', idat), ...chunk('IEND', Buffer.alloc(0))]);
}

/** Copies rows of `stride` bytes into `out` as unfiltered scanlines (a 0 filter byte before each). */
export function writeScanlines(pixels: Uint8Array, stride: number, height: number, out: Buffer): void {
  const src = Buffer.from(pixels.buffer, pixels.byteOffset, stride * height);
  for (let y = 0; y < height; y++) {
    out[y * (stride + 1)] = 0;
    src.copy(out, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
}

/** Encodes 8-bit RGB pixels (row-major, 3 bytes each) as a PNG. Used for generated sample and placeholder images. */
export function encodeRgbPng(width: number, height: number, rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  writeScanlines(rgb, width * 3, height, raw);
  return assemblePng(width, height, 2, deflateSync(raw, { level: 9 }));
}

/** A diagonal two-colour gradient with a few soft circles: easy to tell apart, cheap to compress. */
export function gradientPng(
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
): Buffer {
  return encodeRgbPng(width, height, gradientRgb(width, height, from, to));
}

/** The pixels of gradientPng, 8-bit RGB, for callers that encode them their own way. */
export function gradientRgb(
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  const circles = [0.3, 0.7].map((f, i) => ({
    x: width * f,
    y: height * (i ? 0.35 : 0.65),
    r: Math.min(width, height) * 0.18,
  }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const inCircle = circles.some((c) => (x - c.x) ** 2 + (y - c.y) ** 2 < c.r ** 2);
      for (let k = 0; k < 3; k++) {
        const v = from[k] + (to[k] - from[k]) * t;
        rgb[(y * width + x) * 3 + k] = inCircle ? Math.min(255, v + 60) : v;
      }
    }
  }
  return rgb;
}

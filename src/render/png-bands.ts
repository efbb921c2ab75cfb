// PNG whose rows are deflated in independent pieces, joined into one zlib stream: each piece is
// raw deflate ending on a byte boundary (a sync flush), so pieces made at different times, such as
// a container's background rows deflated once and kept, can be put one after the other; the
// stream's checksum is combined from the pieces' own.
import { promisify } from 'node:util';
import { constants, deflate, deflateRaw } from 'node:zlib';
import { assemblePng } from '../util/png-encode.ts';

const deflateAsync = promisify(deflate);
const deflateRawAsync = promisify(deflateRaw);

/** Scanlines deflated on their own: not final, byte-aligned, with the Adler-32 of the scanlines. */
export interface DeflatedRows {
  data: Buffer;
  adler: number;
  /** Bytes of scanlines the piece holds. */
  length: number;
}

/** Deflates scanlines (filter byte included) on libuv's threads; level 1: these pieces are large. */
export async function deflateRows(scanlines: Buffer, level = 1): Promise<DeflatedRows> {
  const [data, stored] = await Promise.all([
    deflateRawAsync(scanlines, { level, finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1 << 20 }),
    // zlib's own Adler-32 of the scanlines, from the trailer of a stored (level 0) stream.
    deflateAsync(scanlines, { level: 0, chunkSize: 1 << 20 }),
  ]);
  return { data, adler: stored.readUInt32BE(stored.length - 4), length: scanlines.length };
}

/**
 * Deflates scanlines of `stride + 1` bytes a row in `parts` pieces cut at row boundaries, at once:
 * the pieces run on separate threads.
 */
export function deflateRowsInParts(scanlines: Buffer, rowBytes: number, parts: number): Promise<DeflatedRows[]> {
  const rows = scanlines.length / rowBytes;
  const cuts = Array.from({ length: parts + 1 }, (_, i) => Math.round((rows * i) / parts) * rowBytes);
  return Promise.all(cuts.slice(1).map((end, i) => deflateRows(scanlines.subarray(cuts[i], end))));
}

const ADLER_BASE = 65521;

/** Adler-32 of A followed by B, from each one's checksum and B's length (zlib's adler32_combine). */
export function combineAdler(a: number, b: number, lengthB: number): number {
  const rem = lengthB % ADLER_BASE;
  let sum1 = a & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (b & 0xffff) + ADLER_BASE - 1;
  sum2 += ((a >>> 16) & 0xffff) + ((b >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

// A zlib header (deflate, 32 KB window) and an empty final block with fixed codes.
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** An RGBA PNG from its scanlines' pieces, in row order. */
export function assembleRowPieces(width: number, height: number, pieces: DeflatedRows[]): Buffer {
  let adler = 1;
  for (const p of pieces) adler = combineAdler(adler, p.adler, p.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler);
  const idat = Buffer.concat([ZLIB_HEADER, ...pieces.map((p) => p.data), FINAL_BLOCK, trailer]);
  return assemblePng(width, height, 6, idat);
}

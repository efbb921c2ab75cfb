// PNG whose rows are deflated in independent pieces, joined into one zlib stream: each piece is
// raw deflate ending on a byte boundary (a sync flush), so pieces made at different times, such as
// a container's background rows deflated once and kept, can be put one after the other; the
// stream's checksum is combined from the pieces' own.
import { constants, createDeflate } from 'node:zlib';
import { assemblePng } from '../util/png-encode.ts';

/** Scanlines deflated on their own: not final, byte-aligned, with the Adler-32 of the scanlines. */
export interface DeflatedRows {
  data: Buffer;
  adler: number;
  /** Bytes of scanlines the piece holds. */
  length: number;
}

// A zlib stream flushed to a byte boundary and then finished ends with an empty final block of
// fixed codes (these two bytes) and the Adler-32 of its input: cut off, the rest can be joined.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * Deflates scanlines (filter byte included) on a libuv thread, at level 2: for the large pieces
 * of a card's rows it compresses about as well as level 3 and faster than level 1.
 */
export function deflateRows(scanlines: Buffer, level = 2): Promise<DeflatedRows> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const z = createDeflate({ level, chunkSize: 256 << 10 });
    z.on('data', (c: Buffer) => chunks.push(c));
    z.on('error', reject);
    z.on('end', () => {
      const out = Buffer.concat(chunks);
      const tail = out.length - FINAL_BLOCK.length - 4;
      if (tail < 2 || !out.subarray(tail, tail + 2).equals(FINAL_BLOCK)) {
        reject(new Error('zlib did not end the flushed stream with an empty final block'));
        return;
      }
      resolve({ data: out.subarray(2, tail), adler: out.readUInt32BE(out.length - 4), length: scanlines.length });
    });
    z.write(scanlines);
    z.flush(constants.Z_SYNC_FLUSH, () => z.end());
  });
}

/**
 * Deflates scanlines of `stride + 1` bytes a row in `parts` pieces cut at row boundaries, at once:
 * the pieces run on separate threads.
 */
export function deflateRowsInParts(scanlines: Buffer, rowBytes: number, parts: number): Promise<DeflatedRows[]> {
  const rows = scanlines.length / rowBytes;
  const cuts = Array.from({ length: parts + 1 }, (_, i) => Math.round((rows * i) / parts) * rowBytes);
  const pieces = cuts.slice(1).flatMap((end, i) => (end > cuts[i] ? [scanlines.subarray(cuts[i], end)] : []));
  return Promise.all(pieces.map((piece) => deflateRows(piece)));
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

// A zlib header: deflate, 32 KB window.
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);

/** An RGBA PNG from its scanlines' pieces, in row order. */
export function assembleRowPieces(width: number, height: number, pieces: DeflatedRows[]): Buffer {
  let adler = 1;
  for (const p of pieces) adler = combineAdler(adler, p.adler, p.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler);
  const idat = Buffer.concat([ZLIB_HEADER, ...pieces.map((p) => p.data), FINAL_BLOCK, trailer]);
  return assemblePng(width, height, 6, idat);
}

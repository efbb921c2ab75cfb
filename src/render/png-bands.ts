// PNG whose rows are deflated in independent pieces, joined into one zlib stream: each piece is
// raw deflate ending on a byte boundary (a sync flush), so pieces made at different times, such as
// a container's background rows deflated once and kept, can be put one after the other; the
// stream's checksum is combined from the pieces' own.
import { CompressionType, FilterType, Transformer } from '@napi-rs/image';
import { constants, createDeflate } from 'node:zlib';
import { assemblePng, writeScanlines } from '../util/png-encode.ts';

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

const ADLER_BASE = 65521;

// fdeflate (image-rs's fast encoder) writes one final block with a fixed Huffman table: these are
// its first bytes, and 0x8ff its end-of-block code, 12 bits read from the low bit first.
const FDEFLATE_START = Buffer.from([237, 192, 3, 160, 36, 89]);
const FDEFLATE_END = 0x8ff;
const END_BITS = 12;
// An empty stored block's length and its complement: after its three header bits, all zero, and
// padding to a byte, the stream continues on a byte boundary.
const EMPTY_STORED = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** `bits` bits of `data` from bit `at`, low bit first. */
function readBits(data: Buffer, at: number, bits: number): number {
  let value = 0;
  for (let i = 0; i < bits; i++) value |= ((data[(at + i) >> 3] >> ((at + i) & 7)) & 1) << i;
  return value;
}

/**
 * The raw deflate of a zlib stream made by the image-rs encoder, turned into a piece to join
 * (not final, ending on a byte boundary), or null when it is not of a shape known here.
 */
export function joinableDeflate(zlib: Buffer): Buffer | null {
  const raw = zlib.subarray(2, zlib.length - 4);
  if (raw.subarray(0, FDEFLATE_START.length).equals(FDEFLATE_START)) {
    // The end-of-block code's last bit is 1 and the padding after it 0: the last 1 bit ends it.
    let last = raw.length - 1;
    while (last >= 0 && raw[last] === 0) last--;
    if (last < 0) return null;
    const end = last * 8 + (31 - Math.clz32(raw[last])) + 1;
    if (end < END_BITS || readBits(raw, end - END_BITS, END_BITS) !== FDEFLATE_END) return null;
    const out = Buffer.alloc(Math.ceil((end + 3) / 8) + EMPTY_STORED.length);
    raw.copy(out, 0, 0, last + 1);
    out[0] &= 0xfe; // not the final block
    EMPTY_STORED.copy(out, out.length - EMPTY_STORED.length);
    return out;
  }
  // Data it cannot compress it stores: byte-aligned blocks of a one-byte header, LEN and NLEN.
  for (let at = 0; at + 5 <= raw.length; ) {
    const header = raw[at];
    const length = raw.readUInt16LE(at + 1);
    if ((header & 0xfe) !== 0 || raw.readUInt16LE(at + 3) !== (~length & 0xffff)) return null;
    const next = at + 5 + length;
    if (header & 1) {
      if (next !== raw.length) return null;
      const out = Buffer.from(raw);
      out[at] = 0;
      return out;
    }
    at = next;
  }
  return null;
}

// fdeflate's header ends 413 bits in; the first row's filter byte follows as a literal: Paeth (4)
// is these 5 bits, Sub (1) 3 bits, both read from the low bit first.
const FIRST_SYMBOL_BIT = 413;
const PAETH_LITERAL = { code: 21, bits: 5 };
const SUB_LITERAL = { code: 2, bits: 3 };
const PAETH = 4;
const SUB = 1;

/**
 * A bit stream (low bit first) with its first `shift` bits (under 8) dropped: 32 bits at a time,
 * read and written little-endian whatever the machine's byte order.
 */
function shiftedDown(bytes: Buffer, shift: number): Uint8Array {
  const words = Math.ceil(bytes.length / 4);
  const padded = new Uint8Array((words + 1) * 4);
  padded.set(bytes);
  const from = new DataView(padded.buffer);
  const out = new Uint8Array(words * 4);
  const to = new DataView(out.buffer);
  for (let i = 0; i < words * 4; i += 4)
    to.setUint32(i, (from.getUint32(i, true) >>> shift) | (from.getUint32(i + 4, true) << (32 - shift)), true);
  return out.subarray(0, bytes.length);
}

/** Adler-32 of data whose first byte has changed by `delta`: it counts once in A and `length` times in B. */
function adlerWithFirstByteChanged(adler: number, delta: number, length: number): number {
  const mod = (n: number) => ((n % ADLER_BASE) + ADLER_BASE) % ADLER_BASE;
  const a = mod((adler & 0xffff) + delta);
  const b = mod((adler >>> 16) + delta * (length % ADLER_BASE));
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib stream of Paeth-filtered rows made by the image-rs encoder, with its first row labelled
 * Sub (or left unfiltered); null when the stream is not of a shape known here. The encoder
 * filters a first row against a row of zeros, and Paeth then predicts every byte from its left
 * neighbour exactly as Sub does: labelled Sub, the row decodes the same after any row, and the
 * rest keep Paeth's compression.
 */
export function withFirstRowSub(zlib: Buffer, length: number): Buffer | null {
  const raw = zlib.subarray(2, zlib.length - 4);
  const adler = adlerWithFirstByteChanged(zlib.readUInt32BE(zlib.length - 4), SUB - PAETH, length);
  let out: Buffer;
  if (raw.subarray(0, FDEFLATE_START.length).equals(FDEFLATE_START)) {
    if (readBits(raw, FIRST_SYMBOL_BIT, PAETH_LITERAL.bits) !== PAETH_LITERAL.code) return null;
    // The shorter code ends on a byte boundary; every later bit moves up by the difference.
    const cut = (FIRST_SYMBOL_BIT + SUB_LITERAL.bits) / 8;
    const headerBits = FIRST_SYMBOL_BIT % 8;
    const shift = PAETH_LITERAL.bits - SUB_LITERAL.bits;
    out = Buffer.alloc(zlib.length);
    zlib.copy(out, 0, 0, 2 + cut);
    out[2 + cut - 1] = (raw[cut - 1] & ((1 << headerBits) - 1)) | (SUB_LITERAL.code << headerBits);
    out.set(shiftedDown(raw.subarray(cut), shift), 2 + cut);
  } else if ((raw[0] & 0xfe) === 0 && raw.length > 5 && raw.readUInt16LE(1) > 0 && raw[5] <= PAETH) {
    // Stored: the first block's data starts after its header, LEN and NLEN. The encoder stores
    // data it cannot compress unfiltered (None), which, like Sub, needs no row above.
    if (raw[5] !== PAETH) return raw[5] <= SUB ? zlib : null;
    out = Buffer.from(zlib);
    out[2 + 5] = SUB;
  } else return null;
  out.writeUInt32BE(adler, out.length - 4);
  return out;
}

/** The zlib stream of a PNG: its IDAT chunks' data, joined. */
export function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/**
 * Deflates RGBA rows into a piece to join by the image-rs encoder (fdeflate, about twice zlib's
 * speed), with the Paeth filter and the first row Sub, which needs no row above: the piece can
 * follow any rows. A stream of a shape not known here is deflated again by zlib.
 */
export async function deflatePixelRows(rgba: Buffer, width: number, rows: number): Promise<DeflatedRows> {
  const png = await Transformer.fromRgbaPixels(rgba, width, rows).png({
    compressionType: CompressionType.Fast,
    filterType: FilterType.Paeth,
  });
  const length = (width * 4 + 1) * rows;
  const zlib = withFirstRowSub(idatOf(png), length);
  const data = zlib && joinableDeflate(zlib);
  if (zlib && data) return { data, adler: zlib.readUInt32BE(zlib.length - 4), length };
  const scanlines = Buffer.allocUnsafe(length);
  writeScanlines(rgba, width * 4, rows, scanlines);
  return deflateRows(scanlines);
}

/**
 * RGBA rows as scanlines with the Sub filter (each byte less the same channel of the pixel to its
 * left), which needs no row above: a smooth fill such as a gradient becomes runs of small values
 * that deflate to a fraction of the unfiltered size, wherever the rows are joined.
 */
export function writeSubScanlines(rgba: Buffer, width: number, rows: number, out: Buffer): void {
  const stride = width * 4;
  for (let y = 0; y < rows; y++) {
    const s = y * stride;
    const d = y * (stride + 1);
    out[d] = 1;
    for (let i = 0; i < 4; i++) out[d + 1 + i] = rgba[s + i];
    for (let i = 4; i < stride; i++) out[d + 1 + i] = (rgba[s + i] - rgba[s + i - 4]) & 0xff;
  }
}

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

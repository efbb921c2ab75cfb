// One zlib stream made by two threads: the first part and the second part of the input are
// deflated at the same time on libuv's pool and joined. A render worker's PNG deflate of a photo
// card (5 MB of scanlines, ~15 ms) otherwise runs on one core while the other waits; in two halves
// it took 9.5-11.4 ms (scratch/split.mts, 1-photo bench card) and the stream was no larger.
//
// Joining is exact, not approximate:
// - the first part is deflated, then sync-flushed: its deflate data ends on a byte boundary with
//   an empty stored block (00 00 FF FF) and no final-block bit, so the second part's deflate data
//   can follow it. Finishing that stream afterwards adds only an empty final block (03 00) and
//   the first part's Adler-32, which is how we learn it without a pass of our own.
// - the second part is an ordinary zlib stream: its 2-byte header heads the joined stream and its
//   deflate data, which no longer refers back to anything before it, follows the first part's.
// - the trailer is the Adler-32 of the whole input, combined from the two parts' checksums as
//   zlib's adler32_combine() does.
// If the first stream does not end as described (another zlib), the input is deflated in one.
import { promisify } from 'node:util';
import { constants, createDeflate, deflate, deflateSync, type ZlibOptions } from 'node:zlib';

const deflateAsync = promisify(deflate);
const ADLER_BASE = 65521;
const SYNC_MARK = Buffer.from([0x00, 0x00, 0xff, 0xff]);
const EMPTY_FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Adler-32 of A followed by B, from adler(A), adler(B) and B's length (zlib's adler32_combine). */
export function combineAdler32(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += (first >>> 16) + (second >>> 16) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

interface FlushedPart {
  /** Raw deflate data, ending with a sync flush. */
  data: Buffer;
  adler: number;
}

/** Deflates `input` as the first part of a longer stream; null if the stream did not end as expected. */
function deflateFirstPart(input: Buffer, options: ZlibOptions): Promise<FlushedPart | null> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ ...options, chunkSize: 256 * 1024 });
    const chunks: Buffer[] = [];
    let total = 0;
    let flushedAt = -1;
    z.on('data', (c: Buffer) => {
      chunks.push(c);
      total += c.length;
    });
    z.on('error', reject);
    z.on('end', () => {
      const all = Buffer.concat(chunks, total);
      const data = all.subarray(2, flushedAt);
      const rest = all.subarray(flushedAt);
      const ok = flushedAt >= 6 && data.subarray(-4).equals(SYNC_MARK) && rest.length === 6 && rest.subarray(0, 2).equals(EMPTY_FINAL_BLOCK);
      resolve(ok ? { data, adler: rest.readUInt32BE(2) } : null);
    });
    z.write(input);
    z.flush(constants.Z_SYNC_FLUSH, () => {
      flushedAt = total;
      z.end();
    });
  });
}

/** A zlib stream of `input`, deflated as two parts split at byte `cut`, on two of libuv's threads. */
export async function deflateInTwo(input: Buffer, cut: number, options: ZlibOptions): Promise<Buffer> {
  if (cut <= 0 || cut >= input.length) return deflateAsync(input, options);
  const [first, second] = await Promise.all([deflateFirstPart(input.subarray(0, cut), options), deflateAsync(input.subarray(cut), options)]);
  if (!first) return deflateSync(input, options);
  const out = Buffer.allocUnsafe(2 + first.data.length + (second.length - 6) + 4);
  second.copy(out, 0, 0, 2);
  first.data.copy(out, 2);
  second.copy(out, 2 + first.data.length, 2, second.length - 4);
  out.writeUInt32BE(combineAdler32(first.adler, second.readUInt32BE(second.length - 4), input.length - cut), out.length - 4);
  return out;
}

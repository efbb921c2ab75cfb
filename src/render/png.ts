import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { assemblePng, writeScanlines } from '../util/png-encode.ts';

const deflateAsync = promisify(deflate);

// Scanline buffers are reused from render to render (per thread): a fresh 5 MB buffer each time
// cost page faults and brought V8's external-memory garbage collections closer. The buffer of a
// very tall card (a long note) is not kept.
const spare: Buffer[] = [];
const KEPT_BYTES = 16 * 1024 * 1024;

function takeScanlineBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length >= size);
  return i >= 0 ? spare.splice(i, 1)[0] : Buffer.allocUnsafe(Math.ceil(size * 1.25));
}

/**
 * PNG from the engine's straight-alpha RGBA. Scanlines are unfiltered and deflated at level 3 by
 * Node's zlib on libuv's thread pool: the engine's own encoder (adaptive filters, a stronger
 * level) took three times as long on photo cards (docs/performance.md).
 */
export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  const buffer = takeScanlineBuffer((stride + 1) * height);
  const rows = buffer.subarray(0, (stride + 1) * height);
  writeScanlines(rgba, stride, height, rows);
  try {
    return assemblePng(width, height, 6, await deflateAsync(rows, { level: 3, chunkSize: 1 << 20 }));
  } finally {
    if (spare.length < 2 && buffer.length <= KEPT_BYTES) spare.push(buffer);
  }
}

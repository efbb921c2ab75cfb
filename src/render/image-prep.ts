// Images are decoded and resized once, to the box they are drawn in at the output scale, and
// re-encoded small: a render then handles a 100 KB JPEG instead of a 2 MB original.
// Decoding is capped in pixels, so a decompression bomb fails (and draws a placeholder).
import { createHash } from 'node:crypto';
import { ByteLru } from '../util/byte-lru.ts';
import { shareBytes, type PreparedImage } from './assets.ts';
import sharp from './sharp-setup.ts';

const MAX_INPUT_PIXELS = 40_000_000;

export class ImagePrep {
  private readonly cache: ByteLru<PreparedImage | null>;
  // Fetched media comes from the media cache as the same Buffer each time: its hash is kept
  // with it rather than recomputed over megabytes on every render.
  private readonly sourceHashes = new WeakMap<Uint8Array, string>();

  constructor(budgetBytes = 64 * 1024 * 1024) {
    this.cache = new ByteLru(budgetBytes, (img) => img?.bytes.byteLength ?? 1);
  }

  private hashOf(source: Buffer): string {
    let hash = this.sourceHashes.get(source);
    if (!hash) {
      hash = createHash('sha1').update(source).digest('hex');
      this.sourceHashes.set(source, hash);
    }
    return hash;
  }

  /** The image cropped to `width`×`height` device pixels (cover), or null when it cannot be decoded. */
  async prepare(source: Buffer, width: number, height: number): Promise<PreparedImage | null> {
    const key = `${this.hashOf(source)}:${width}x${height}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let prepared: PreparedImage | null;
    try {
      const img = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).resize(width, height, {
        fit: 'cover',
        position: 'centre',
      });
      const meta = await img.metadata();
      const out = meta.hasAlpha
        ? await img.png({ compressionLevel: 3 }).toBuffer()
        : await img.jpeg({ quality: 88 }).toBuffer();
      prepared = { key, mime: meta.hasAlpha ? 'image/png' : 'image/jpeg', bytes: shareBytes(out) };
    } catch {
      prepared = null;
    }
    this.cache.set(key, prepared);
    return prepared;
  }
}

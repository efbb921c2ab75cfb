// Images are decoded and resized once, to the box they are drawn in at the output scale, and
// re-encoded small: resvg then decodes a 100 KB JPEG instead of a 2 MB original on every render.
// Decoding is capped in pixels, so a decompression bomb fails (and draws a placeholder).
import { createHash } from 'node:crypto';
import { ByteLru } from '../util/byte-lru.ts';
import sharp from './sharp-setup.ts';

const MAX_INPUT_PIXELS = 40_000_000;

export class ImagePrep {
  private readonly cache: ByteLru<string | null>;

  constructor(budgetBytes = 64 * 1024 * 1024) {
    this.cache = new ByteLru(budgetBytes, (uri) => uri?.length ?? 1);
  }

  /** A data URI of the image cropped to `width`×`height` device pixels (cover), or null when it cannot be decoded. */
  async prepare(source: Buffer, width: number, height: number): Promise<string | null> {
    const key = `${createHash('sha1').update(source).digest('hex')}:${width}x${height}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let uri: string | null;
    try {
      const img = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).resize(width, height, { fit: 'cover', position: 'centre' });
      const meta = await img.metadata();
      const out = meta.hasAlpha ? await img.png({ compressionLevel: 3 }).toBuffer() : await img.jpeg({ quality: 88 }).toBuffer();
      uri = `data:${meta.hasAlpha ? 'image/png' : 'image/jpeg'};base64,${out.toString('base64')}`;
    } catch {
      uri = null;
    }
    this.cache.set(key, uri);
    return uri;
  }
}

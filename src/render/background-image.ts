// Container background images: fetched through the public-image guard, decoded once and kept
// small (the container is at most a few thousand device pixels wide), shared with the workers.
import { createHash } from 'node:crypto';
import { fetchPublicImage, type PublicImageOptions } from '../sources/public-image.ts';
import { ByteLru } from '../util/byte-lru.ts';
import { shareBytes, type PreparedImage } from './assets.ts';
import { OptionError } from './options.ts';
import sharp from './sharp-setup.ts';

/** Longest side kept: a 1000 px wide canvas at scale 3 with room for cover cropping. */
const MAX_SIDE = 3200;

export class BackgroundImages {
  private readonly cache = new ByteLru<PreparedImage>(32 * 1024 * 1024, (p) => p.bytes.byteLength);

  constructor(private readonly options: PublicImageOptions) {}

  /** The prepared image, or an OptionError naming backgroundImage and why it was refused. */
  async load(url: string): Promise<PreparedImage> {
    const hit = this.cache.get(url);
    if (hit) return hit;
    const got = await fetchPublicImage(url, this.options);
    if (!got.ok) throw new OptionError('backgroundImage', `Parameter "backgroundImage" ${got.reason}.`);
    const out = await sharp(got.bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 88 })
      .toBuffer()
      .catch(() => {
        throw new OptionError('backgroundImage', 'Parameter "backgroundImage" could not be decoded.');
      });
    const prepared: PreparedImage = {
      key: `bg:${createHash('sha1').update(out).digest('hex')}`,
      mime: 'image/jpeg',
      bytes: shareBytes(out),
    };
    this.cache.set(url, prepared);
    return prepared;
  }
}

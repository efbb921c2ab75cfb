import type { RenderFormat } from '../../render/options.ts';
import { DependencyDownError } from '../../errors.ts';
import { createHash, randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type FoundImage, IMAGE_KEY, IMAGE_TYPES, type ImageStore, type StoredImage } from './interface.ts';

const TEMP_FILE = /^\.[0-9a-f-]{36}\.tmp$/;

/** Files under `<data dir>/images`, named by content hash; served by the service at /images/. */
export class DiskImageStore implements ImageStore {
  readonly kind = 'disk' as const;

  constructor(
    private readonly dir: string,
    private readonly publicUrl: string,
  ) {}

  async put(bytes: Buffer, ext: RenderFormat): Promise<StoredImage> {
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    const file = path.join(this.dir, key);
    const stored = await fs.access(file).then(
      () => true,
      () => false,
    );
    if (!stored) {
      // Write then rename: a reader never sees a half-written file, a crash leaves only a temp file.
      const tmp = path.join(this.dir, `.${randomUUID()}.tmp`);
      try {
        await fs.mkdir(this.dir, { recursive: true });
        const handle = await fs.open(tmp, 'w');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(tmp, file);
      } catch (err) {
        // A full, read-only or missing disk is the image store being down (503, refunded), as an
        // unreachable S3 is: not a bug of this request.
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw new DependencyDownError('image store', err);
      }
    }
    return { key, url: `${this.publicUrl}/images/${key}` };
  }

  async get(key: string): Promise<FoundImage | null> {
    if (!IMAGE_KEY.test(key)) return null;
    let handle: FileHandle | undefined;
    try {
      handle = await fs.open(path.join(this.dir, key), 'r');
      const [bytes, stat] = await Promise.all([handle.readFile(), handle.stat()]);
      return { bytes, contentType: IMAGE_TYPES[key.split('.')[1]], lastModified: stat.mtime };
    } catch {
      return null;
    } finally {
      await handle?.close();
    }
  }

  /**
   * Deletes temp files last written before `before` (ms since epoch): writes cut off by a crash.
   * Called with the time `serve` took the data dir's lock, so no live writer owns one of them.
   */
  async removeAbandonedTemps(before: number): Promise<number> {
    let removed = 0;
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => TEMP_FILE.test(n))) {
      const file = path.join(this.dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat || stat.mtimeMs >= before) continue;
      const gone = await fs.rm(file).then(
        () => true,
        () => false,
      );
      if (gone) removed++;
    }
    return removed;
  }

  async ping(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }
}

// Images a card draws, prepared once in the main thread and shared with the render workers.
// Bytes live in SharedArrayBuffers: posting a card's assets to a worker copies no image data,
// and no image passes through a JavaScript string unless a format embeds it (SVG, HTML, and
// the images SVG embeds). Strings of that size land in V8's large-object space and
// each copy brought the next full garbage collection closer.
import { ByteLru } from '../util/byte-lru.ts';
import type { ImageBytes } from './tree.ts';

export interface PreparedImage extends ImageBytes {
  /** Content hash of the source and the prepared size. */
  key: string;
  mime: 'image/jpeg' | 'image/png';
}

/** Prepared images by source URL; null draws a placeholder. */
export type Assets = ReadonlyMap<string, PreparedImage | null>;

export function shareBytes(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

// Data URIs made in this thread, so an image embedded on every render is encoded once.
const uris = new ByteLru<string>(8 * 1024 * 1024, (s) => s.length);

export function dataUri(image: ImageBytes): string {
  let uri = uris.get(image.key);
  if (uri === undefined) {
    uri = `data:${image.mime};base64,${Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64')}`;
    uris.set(image.key, uri);
  }
  return uri;
}

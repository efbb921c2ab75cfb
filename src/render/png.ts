import { CompressionType, FilterType, Transformer } from '@napi-rs/image';
import type { Raster } from './engine-takumi.ts';

/**
 * PNG from the engine's straight-alpha RGBA, by the image-rs encoder (@napi-rs/image) with its
 * fast deflate and the Paeth filter, off the main thread: a third of zlib's time on photo cards,
 * at a similar size (docs/performance.md).
 */
export function encodePng(raster: Raster): Promise<Buffer> {
  return Transformer.fromRgbaPixels(raster.rgba, raster.width, raster.height).png({
    compressionType: CompressionType.Fast,
    filterType: FilterType.Paeth,
  });
}

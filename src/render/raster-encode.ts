// JPEG and WebP from the same raster as PNG: resvg's premultiplied RGBA, encoded by libvips.
import sharp from './sharp-setup.ts';

export interface Raster {
  pixels: Buffer;
  width: number;
  height: number;
}

/** JPEG has no alpha: translucent pixels (the card's rounded corners) are flattened onto `matte`. */
export async function encodeRaster(
  { pixels, width, height }: Raster,
  format: 'jpeg' | 'webp',
  quality: number,
  matte: string,
): Promise<Buffer> {
  const img = sharp(pixels, { raw: { width, height, channels: 4, premultiplied: true } });
  if (format === 'webp') return img.webp({ quality }).toBuffer();
  return img.flatten({ background: matte }).jpeg({ quality, mozjpeg: false }).toBuffer();
}

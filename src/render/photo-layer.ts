// Photos in PNG output are drawn here, not by resvg. resvg decodes every embedded JPEG and paints
// it through a resampling pattern on each render: 18 ms for one 1028×686 photo, more than the
// rest of the card. Here a photo is decoded once per worker at its drawn device size, its
// rounded corners baked into its alpha, and copied row by row onto resvg's pixmap.
//
// How a photo gets here: the card tree draws it as liftMarker(i) when nothing is drawn over it
// (card.ts) and records it as lifted[i]; satori lays the marker out like any image, and
// takeMarkers() reads the boxes back from the SVG and removes them. Each marker says which photo
// it stands for: satori paints positioned boxes (photo tiles) after the rest, as CSS does, so the
// SVG's order is not the tree's (a quoted post's avatar comes before the photos above it).
import { deflateSync } from 'node:zlib';
import { ByteLru } from '../util/byte-lru.ts';
import { assemblePng } from '../util/png-encode.ts';
import type { PreparedImage } from './assets.ts';
import sharp from './sharp-setup.ts';

const markers: string[] = [];
const markerIndex = new Map<string, number>();

/** The stand-in satori lays out where lifted photo `index` goes: a transparent 1×1 PNG whose colour is the index. */
export function liftMarker(index: number): string {
  while (markers.length <= index) {
    const i = markers.length;
    const scanline = Buffer.from([0, (i >> 16) & 255, (i >> 8) & 255, i & 255, 0]);
    const uri = `data:image/png;base64,${assemblePng(1, 1, 6, deflateSync(scanline)).toString('base64')}`;
    markers.push(uri);
    markerIndex.set(uri, i);
  }
  return markers[index];
}

export interface Radii {
  tl?: number;
  tr?: number;
  bl?: number;
  br?: number;
}

/** A photo the PNG pipeline draws itself: its prepared image and corner radii (CSS px). */
export interface LiftedPhoto {
  image: PreparedImage;
  radii: Radii;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MARKER_ELEMENT = /<image\b[^>]*?\/>/g;
const HREF = / href="([^"]*)"/;

/** The marker boxes (CSS px), `boxes[i]` for liftMarker(i), and the SVG without them. */
export function takeMarkers(svg: string): { svg: string; boxes: Box[] } {
  const boxes: Box[] = [];
  const rest = svg.replace(MARKER_ELEMENT, (el) => {
    const index = markerIndex.get(HREF.exec(el)?.[1] ?? '');
    if (index === undefined) return el;
    // A marker is laid out as a plain rectangle; anything else means the tree changed under us.
    if (/ (transform|clip-path|mask|opacity)=/.test(el))
      throw new Error(`lifted photo drawn with effects: ${el.slice(0, 120)}`);
    const attr = (name: string) => Number(new RegExp(` ${name}="([-\\d.]+)"`).exec(el)?.[1] ?? Number.NaN);
    const box = { x: attr('x'), y: attr('y'), width: attr('width'), height: attr('height') };
    if (Object.values(box).some((v) => !Number.isFinite(v)))
      throw new Error(`lifted photo without a box: ${el.slice(0, 120)}`);
    if (boxes[index]) throw new Error(`lifted photo ${index} laid out twice`);
    boxes[index] = box;
    return '';
  });
  for (let i = 0; i < boxes.length; i++) if (!boxes[i]) throw new Error(`no marker for lifted photo ${i}`);
  return { svg: rest, boxes };
}

interface Tile {
  width: number;
  height: number;
  /** Premultiplied RGBA. */
  pixels: Buffer;
  /** Per row, the run of fully opaque pixels [from, to) that is copied rather than blended. */
  solidFrom: Uint32Array;
  solidTo: Uint32Array;
}

// Decoded tiles of recent photos, per worker: 1028×686 is 2.8 MB.
const tiles = new ByteLru<Tile>(16 * 1024 * 1024, (t) => t.pixels.length);

/** Share of a pixel inside a quarter circle of radius r whose centre is (cx, cy). */
function coverage(px: number, py: number, cx: number, cy: number, r: number): number {
  const d = Math.hypot(px + 0.5 - cx, py + 0.5 - cy);
  return Math.min(1, Math.max(0, r - d + 0.5));
}

function cornerCoverage(x: number, y: number, w: number, h: number, r: Required<Radii>): number {
  if (x < r.tl && y < r.tl) return coverage(x, y, r.tl, r.tl, r.tl);
  if (x >= w - r.tr && y < r.tr) return coverage(x, y, w - r.tr, r.tr, r.tr);
  if (x < r.bl && y >= h - r.bl) return coverage(x, y, r.bl, h - r.bl, r.bl);
  if (x >= w - r.br && y >= h - r.br) return coverage(x, y, w - r.br, h - r.br, r.br);
  return 1;
}

async function decodeTile(image: PreparedImage, width: number, height: number, radii: Required<Radii>): Promise<Tile> {
  const { data, info } = await sharp(image.bytes)
    .resize(width, height, { fit: 'fill' })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4 || info.width !== width || info.height !== height)
    throw new Error(`photo decoded as ${info.width}×${info.height}×${info.channels}`);
  const solidFrom = new Uint32Array(height);
  const solidTo = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let from = width;
    let to = 0;
    let solidCount = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const a = data[i + 3] * cornerCoverage(x, y, width, height, radii);
      if (a >= 255) {
        if (from === width) from = x;
        to = x + 1;
        solidCount++;
        continue;
      }
      const alpha = Math.round(a);
      data[i] = Math.round((data[i] * alpha) / 255);
      data[i + 1] = Math.round((data[i + 1] * alpha) / 255);
      data[i + 2] = Math.round((data[i + 2] * alpha) / 255);
      data[i + 3] = alpha;
    }
    // The copied run must be solid throughout; a translucent pixel inside it (a PNG with
    // holes) makes the whole row blended.
    const solid = from < to && solidCount === to - from;
    solidFrom[y] = solid ? from : width;
    solidTo[y] = solid ? to : width;
  }
  return { width, height, pixels: data, solidFrom, solidTo };
}

async function tileFor(photo: LiftedPhoto, width: number, height: number, scale: number): Promise<Tile> {
  const radii = {
    tl: Math.round((photo.radii.tl ?? 0) * scale),
    tr: Math.round((photo.radii.tr ?? 0) * scale),
    bl: Math.round((photo.radii.bl ?? 0) * scale),
    br: Math.round((photo.radii.br ?? 0) * scale),
  };
  const key = `${photo.image.key}:${width}x${height}:${Object.values(radii).join(',')}`;
  let tile = tiles.get(key);
  if (!tile) {
    tile = await decodeTile(photo.image, width, height, radii);
    tiles.set(key, tile);
  }
  return tile;
}

/** Source-over of a premultiplied tile onto a premultiplied pixmap, clipped to it. */
function blit(dst: Buffer, dstWidth: number, dstHeight: number, tile: Tile, left: number, top: number): void {
  const blend = (si: number, di: number) => {
    const inv = 255 - tile.pixels[si + 3];
    for (let c = 0; c < 4; c++) dst[di + c] = tile.pixels[si + c] + Math.round((dst[di + c] * inv) / 255);
  };
  for (let y = 0; y < tile.height; y++) {
    const dy = top + y;
    if (dy < 0 || dy >= dstHeight) continue;
    const x0 = Math.max(0, -left);
    const x1 = Math.min(tile.width, dstWidth - left);
    const from = Math.max(x0, tile.solidFrom[y]);
    const to = Math.min(x1, tile.solidTo[y]);
    const row = y * tile.width;
    const drow = dy * dstWidth + left;
    for (let x = x0; x < Math.min(from, x1); x++) blend((row + x) * 4, (drow + x) * 4);
    if (from < to) tile.pixels.copy(dst, (drow + from) * 4, (row + from) * 4, (row + to) * 4);
    for (let x = Math.max(to, x0, from); x < x1; x++) blend((row + x) * 4, (drow + x) * 4);
  }
}

/** Draws each lifted photo into its marker's box on resvg's premultiplied RGBA pixmap. */
export async function drawPhotos(
  pixmap: Buffer,
  width: number,
  height: number,
  photos: LiftedPhoto[],
  boxes: Box[],
  scale: number,
): Promise<void> {
  if (photos.length !== boxes.length)
    throw new Error(`${photos.length} lifted photos but ${boxes.length} markers in the SVG`);
  const placed = boxes.map((b) => {
    const left = Math.round(b.x * scale);
    const top = Math.round(b.y * scale);
    return {
      left,
      top,
      width: Math.round((b.x + b.width) * scale) - left,
      height: Math.round((b.y + b.height) * scale) - top,
    };
  });
  const decoded = await Promise.all(photos.map((p, i) => tileFor(p, placed[i].width, placed[i].height, scale)));
  for (const [i, tile] of decoded.entries()) blit(pixmap, width, height, tile, placed[i].left, placed[i].top);
}

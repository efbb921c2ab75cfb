// A card on its container as PNG. The engine draws the card alone, exactly as for a plain card,
// and the container once per size and fill, which is kept with its rows already deflated; the
// card is laid on it here, and a request deflates only the rows the card covers, with the same
// fast deflate as a plain card. So the container costs little more than the plain card (npm run
// bench compares them).
import { ByteLru } from '../util/byte-lru.ts';
import { backgroundTree, planCanvas, type CanvasPlan } from './canvas.ts';
import { layOver } from './composite.ts';
import { rasterize, type EngineCard } from './engine-takumi.ts';
import type { RenderOptionsFull } from './options.ts';
import { assembleRowPieces, deflatePixelRows, deflateRows, type DeflatedRows, writeSubScanlines } from './png-bands.ts';
import type { ImageBytes } from './tree.ts';

/** Background rows are deflated and kept in groups of this many. */
const GROUP_ROWS = 16;
/** The rows the card covers are deflated in this many pieces, at once (two cores). */
const PARTS = 2;

interface Background {
  width: number;
  height: number;
  rgba: Buffer;
  groups: Array<Promise<DeflatedRows> | undefined>;
}

// A 4:5 container at 2x is about 7 MB of pixels: a few sizes and fills are kept.
const backgrounds = new ByteLru<Background>(32 << 20, (b) => b.rgba.length);

async function backgroundOf(
  plan: CanvasPlan,
  card: EngineCard,
  width: number,
  height: number,
  scale: number,
  image: ImageBytes | undefined,
): Promise<Background | null> {
  const key = `${width}x${height}@${scale}|${plan.background}|${image?.key ?? ''}`;
  const kept = backgrounds.get(key);
  if (kept) return kept;
  const tree = backgroundTree(plan, height / scale, image);
  const raster = await rasterize({ tree, faces: card.faces, width: plan.width }, scale);
  if (raster.width !== width || raster.height !== height) return null;
  const background = { width, height, rgba: raster.rgba, groups: [] };
  backgrounds.set(key, background);
  return background;
}

// The buffer the card's rows are put together in is reused from request to request: a fresh
// one each time is megabytes of external memory that make V8 collect more often.
const spare: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length >= size);
  return i >= 0 ? spare.splice(i, 1)[0] : Buffer.allocUnsafe(size);
}

function giveBack(buffer: Buffer): void {
  if (spare.length < 2 && buffer.length <= 16 << 20) spare.push(buffer);
}

function groupOf(bg: Background, g: number): Promise<DeflatedRows> {
  if (!bg.groups[g]) {
    const rowBytes = bg.width * 4;
    const rows = Math.min(bg.height, (g + 1) * GROUP_ROWS) - g * GROUP_ROWS;
    const scanlines = Buffer.allocUnsafe((rowBytes + 1) * rows);
    writeSubScanlines(bg.rgba.subarray(g * GROUP_ROWS * rowBytes), bg.width, rows, scanlines);
    // Deflated once and kept: worth zlib's best level, a fifth smaller than its default here,
    // for a smaller answer every time.
    bg.groups[g] = deflateRows(scanlines, 9);
  }
  return bg.groups[g];
}

/**
 * The PNG of `card` on the container the options ask for, or null when this way cannot draw it
 * (a canvas too large for the engine at this scale): the caller then draws one tree instead.
 */
export async function renderContainerPng(
  card: EngineCard,
  o: RenderOptionsFull,
  image: ImageBytes | undefined,
): Promise<Buffer | null> {
  const scale = o.scale;
  let drawn = await rasterize(card, scale);
  const plan = planCanvas(o, o.width, drawn.height / scale);
  if (!plan) return null;
  if (plan.scale < 1) drawn = await rasterize(card, scale * plan.scale);
  const width = Math.round(plan.width * scale);
  const height =
    plan.height !== null ? Math.round(plan.height * scale) : drawn.height + 2 * Math.round(plan.padding * scale);
  const x = Math.max(0, Math.min(width - drawn.width, Math.round(plan.x * scale)));
  const y = Math.max(0, Math.min(height - drawn.height, Math.round(plan.y * scale)));
  if (drawn.width > width || drawn.height > height) return null;
  const bg = await backgroundOf(plan, card, width, height, scale, image);
  if (!bg) return null;

  // The rows the card covers, widened to whole groups: the background's, with the card laid on.
  const rowBytes = width * 4;
  const first = Math.floor(y / GROUP_ROWS);
  const last = Math.ceil((y + drawn.height) / GROUP_ROWS);
  const start = first * GROUP_ROWS;
  const rows = bg.rgba.subarray(start * rowBytes, Math.min(height, last * GROUP_ROWS) * rowBytes);
  const buffer = takeBuffer(rows.length);
  const corner = Math.ceil(o.borderRadius * scale * Math.min(1, plan.scale)) + 2;
  // Each part is deflated on a libuv thread as soon as it is laid, while the next one is laid.
  const count = rows.length / rowBytes;
  const cuts = Array.from({ length: PARTS + 1 }, (_, i) => Math.round((count * i) / PARTS));
  const middle: Array<Promise<DeflatedRows>> = [];
  for (let i = 0; i < PARTS; i++) {
    const [from, to] = [cuts[i] * rowBytes, cuts[i + 1] * rowBytes];
    if (to === from) continue;
    layOver(rows.subarray(from, to), buffer.subarray(from, to), rowBytes, drawn, x, y - start - cuts[i], corner);
    middle.push(deflatePixelRows(buffer.subarray(from, to), width, cuts[i + 1] - cuts[i]));
  }

  const groups = Math.ceil(height / GROUP_ROWS);
  try {
    const pieces = await Promise.all([
      ...Array.from({ length: first }, (_, g) => groupOf(bg, g)),
      ...middle,
      ...Array.from({ length: Math.max(0, groups - last) }, (_, i) => groupOf(bg, last + i)),
    ]);
    return assembleRowPieces(width, height, pieces);
  } finally {
    giveBack(buffer);
  }
}

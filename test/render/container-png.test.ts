import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { deflateSync, inflateSync } from 'node:zlib';
import { CompressionType, FilterType, Transformer } from '@napi-rs/image';
import { PNG } from 'pngjs';
import { canvasTree, planCanvas } from '../../src/render/canvas.ts';
import { measureCard, rasterize } from '../../src/render/engine-takumi.ts';
import { loadAssets } from '../../src/render/load-assets.ts';
import { defaultOptions, type RenderOptionsFull } from '../../src/render/options.ts';
import { encodePng } from '../../src/render/png.ts';
import {
  assembleRowPieces,
  combineAdler,
  deflatePixelRows,
  deflateRows,
  idatOf,
  joinableDeflate,
  withFirstRowSub,
} from '../../src/render/png-bands.ts';
import { buildCardTree, renderCard } from '../../src/render/renderer.ts';
import type { Assets } from '../../src/render/assets.ts';
import type { Post } from '../../src/sources/post.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost, mediaFromFixtures, pixelDifference } from './support.ts';

const adlerOf = (b: Buffer) => deflateSync(b, { level: 0 }).readUInt32BE(deflateSync(b, { level: 0 }).length - 4);

test('Adler-32 of pieces combines to the Adler-32 of the whole', () => {
  for (const size of [0, 1, 5551, 5552, 65_521, 200_003]) {
    const whole = randomBytes(size);
    for (const cut of [0, 1, Math.floor(size / 3), size]) {
      const a = whole.subarray(0, cut);
      const b = whole.subarray(cut);
      assert.equal(combineAdler(adlerOf(a), adlerOf(b), b.length), adlerOf(whole), `${size} cut at ${cut}`);
    }
  }
});

test('rows deflated in pieces make one PNG any decoder reads back exactly', async () => {
  const width = 37;
  const height = 23;
  const rowBytes = width * 4 + 1;
  const scanlines = randomBytes(rowBytes * height);
  for (let y = 0; y < height; y++) scanlines[y * rowBytes] = 0;
  const cuts = [0, 7, 15, height].map((row) => row * rowBytes);
  const pieces = await Promise.all(cuts.slice(1).map((end, i) => deflateRows(scanlines.subarray(cuts[i], end))));
  const png = assembleRowPieces(width, height, pieces);
  const read = PNG.sync.read(png); // zlib inflate checks the stream's Adler-32
  for (let y = 0; y < height; y++)
    assert.deepEqual(
      read.data.subarray(y * width * 4, (y + 1) * width * 4),
      scanlines.subarray(y * rowBytes + 1, (y + 1) * rowBytes),
    );
});

/** RGBA rows a card might hold: smooth colour with sharp-edged marks; fdeflate compresses them. */
function smoothRows(width: number, height: number, seed: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const mark = (x * 7 + y * 3 + seed) % 29 < 3;
      out[i] = mark ? 20 : (x + seed) & 255;
      out[i + 1] = mark ? 30 : (y * 2) & 255;
      out[i + 2] = mark ? 40 : 200;
      out[i + 3] = 255;
    }
  return out;
}

/** RGBA rows deflated in `parts` pieces cut at row boundaries, at once. */
function deflateInParts(rgba: Buffer, width: number, parts: number) {
  const rows = rgba.length / (width * 4);
  const cuts = Array.from({ length: parts + 1 }, (_, i) => Math.round((rows * i) / parts));
  return Promise.all(
    cuts
      .slice(1)
      .map((end, i) => deflatePixelRows(rgba.subarray(cuts[i] * width * 4, end * width * 4), width, end - cuts[i])),
  );
}

test('fast-deflated pixel rows, compressed or stored, join after any rows and read back exactly', async () => {
  const width = 301;
  const smooth = smoothRows(width, 70, 5);
  const noisy = randomBytes(width * 4 * 30);
  // Both shapes the fast encoder writes are relabelled and joined as they are, not deflated again.
  for (const rgba of [smooth, noisy]) {
    const rows = rgba.length / (width * 4);
    const png = await Transformer.fromRgbaPixels(rgba, width, rows).png({
      compressionType: CompressionType.Fast,
      filterType: FilterType.Paeth,
    });
    const relabelled = withFirstRowSub(idatOf(png), (width * 4 + 1) * rows);
    assert.ok(relabelled && joinableDeflate(relabelled), 'the stream is joined as it is');
    // Decoded alone, the relabelled stream is the same rows, its checksum corrected.
    const alone = inflateSync(relabelled);
    if (rgba === smooth) {
      assert.equal(alone[0], 1, 'the first row is Sub');
      assert.equal(alone[width * 4 + 1], 4, 'the next rows stay Paeth');
    } else assert.equal(alone[0], 0, 'data that cannot be compressed is stored unfiltered');
  }
  // Rows above each piece differ from the piece's own, so a filter that looked up would show.
  const above = randomBytes(width * 4 * 9);
  const aboveScanlines = Buffer.alloc((width * 4 + 1) * 9);
  for (let y = 0; y < 9; y++) above.copy(aboveScanlines, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  const pieces = [
    await deflateRows(aboveScanlines),
    ...(await deflateInParts(smooth, width, 2)),
    ...(await deflateInParts(noisy, width, 3)),
    ...(await deflateInParts(smoothRows(width, 1, 9), width, 1)),
  ];
  const whole = Buffer.concat([above, smooth, noisy, smoothRows(width, 1, 9)]);
  const height = whole.length / (width * 4);
  const read = PNG.sync.read(assembleRowPieces(width, height, pieces)); // checks the Adler-32
  assert.equal(read.height, height);
  assert.ok(read.data.equals(whole), 'every pixel as written');
});

test('a stream of a shape not known is not joined', () => {
  const zlib = deflateSync(smoothRows(40, 10, 1));
  assert.equal(joinableDeflate(zlib), null);
});

const GRADIENT = 'linear-gradient(135deg, #ff5f6d 0%, #ffc371 100%)';
const CONTAINERS: Array<[string, Partial<RenderOptionsFull>, number]> = [
  ['4:5 gradient', { aspectRatio: '4:5', containerBackground: GRADIENT }, 0.001],
  ['16:9 colour, square corners', { aspectRatio: '16:9', containerBackground: '#1d9bf0', borderRadius: 0 }, 0.02],
  ['translucent, padded, narrow', { width: 320, containerBackground: 'rgba(0,0,0,0.5)', containerPadding: 40 }, 0.001],
  ['fixed height, card scaled down', { height: 300, containerBackground: '#333', borderRadius: 32 }, 0.02],
];

let fixture: Awaited<ReturnType<typeof mediaFromFixtures>>['fixture'];
const posts: Array<{ name: string; post: Post; assets: Assets }> = [];
before(async () => {
  const m = await mediaFromFixtures();
  fixture = m.fixture;
  for (const [name, id] of [
    ['text', '1900000000000000014'],
    ['photo', '1900000000000000018'],
  ]) {
    const post = loadPost(SAMPLES_DIR, id);
    posts.push({ name, post, assets: await loadAssets(post, m.media, 2) });
  }
});
after(() => fixture.close());

/** Share of pixels where some channel differs by more than 16 levels (pixelmatch forgives faint edges). */
function strictDifference(a: Buffer, b: Buffer): number {
  const x = PNG.sync.read(a);
  const y = PNG.sync.read(b);
  if (x.width !== y.width || x.height !== y.height) return 1;
  let n = 0;
  for (let i = 0; i < x.data.length; i += 4)
    for (let k = 0; k < 4; k++)
      if (Math.abs(x.data[i + k] - y.data[i + k]) > 16) {
        n++;
        break;
      }
  return n / (x.width * x.height);
}

/** The card and its container drawn by the engine as one tree: what the laid-on PNG must show. */
async function oneTree(post: Post, assets: Assets, o: RenderOptionsFull): Promise<Buffer> {
  const card = buildCardTree(post, o, assets);
  const bare = { tree: card.tree, faces: card.fonts.faces, width: o.width };
  const plan = planCanvas(o, o.width, (await measureCard(bare)).height);
  assert.ok(plan);
  const tree = canvasTree(plan, undefined, card.tree);
  tree.props.style = { ...tree.props.style, fontFamily: card.tree.props.style?.fontFamily ?? '' };
  return encodePng(await rasterize({ tree, faces: card.fonts.faces, width: plan.width }, o.scale));
}

for (const [label, options, bound] of CONTAINERS) {
  for (const theme of ['light', 'dark'] as const) {
    test(`a card laid on its container looks as the engine draws both: ${label} (${theme})`, async () => {
      for (const { name, post, assets } of posts) {
        const o: RenderOptionsFull = { ...defaultOptions(), ...options, theme, format: 'png', scale: 2 };
        const first = (await renderCard(post, assets, o)).bytes;
        const reference = await oneTree(post, assets, o);
        const { ratio } = pixelDifference(first, reference);
        assert.ok(ratio <= bound, `${name}: ${(ratio * 100).toFixed(2)} % of pixels differ`);
        // Drawn at the same scale, the card's anti-aliased corners and edges match too.
        if (bound < 0.01) {
          const strict = strictDifference(first, reference);
          assert.ok(strict <= 0.00002, `${name}: ${(strict * 100).toFixed(4)} % of pixels differ by > 16 levels`);
        }
        // The second render uses the kept background: the same file.
        assert.deepEqual((await renderCard(post, assets, o)).bytes, first, name);
      }
    });
  }
}

test('a container at a fractional scale keeps the card inside the canvas', async () => {
  const { post, assets } = posts[1];
  const o: RenderOptionsFull = {
    ...defaultOptions(),
    aspectRatio: '1:1',
    containerBackground: GRADIENT,
    theme: 'light',
    format: 'png',
    scale: 1.5,
  };
  const png = PNG.sync.read((await renderCard(post, assets, o)).bytes);
  assert.equal(png.width, png.height);
  // The canvas corners show the gradient's end colours, not the card.
  const at = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
  assert.ok(at(0, 0)[0] > 240 && at(0, 0)[1] < 110, `top left ${at(0, 0)}`);
  assert.ok(at(png.width - 1, png.height - 1)[1] > 180, `bottom right ${at(png.width - 1, png.height - 1)}`);
});

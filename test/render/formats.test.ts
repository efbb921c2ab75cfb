import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { encodeRaster } from '../../src/render/engine-takumi.ts';
import { buildCardTree, renderCard } from '../../src/render/renderer.ts';
import sharp from '../../src/render/sharp-setup.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import type { Post } from '../../src/sources/post.ts';
import { CRAFTED_POSTS } from '../integration/crafted-posts.ts';
import { corpusPost } from './corpus.ts';

test('JPEG and WebP are the PNG raster in other encodings', async () => {
  const post = corpusPost('hebrew');
  const { tree, fonts } = buildCardTree(post, 'light', new Map());
  const card = { tree, faces: fonts.faces, width: 550 };
  const png = PNG.sync.read((await renderCard(post, new Map(), { format: 'png', theme: 'light', scale: 2 })).bytes);
  for (const format of ['jpeg', 'webp'] as const) {
    const bytes = await encodeRaster(card, 2, format);
    const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.format, 'raw');
    assert.deepEqual([info.width, info.height], [png.width, png.height], format);
    // Inside the card (opaque), the lossy picture stays within a few levels of the PNG on average.
    let total = 0;
    let n = 0;
    for (let y = 40; y < png.height - 40; y += 3) {
      for (let x = 40; x < png.width - 40; x += 3) {
        const i = (y * png.width + x) * 4;
        for (let c = 0; c < 3; c++) total += Math.abs(data[i + c] - png.data[i + c]);
        n += 3;
      }
    }
    assert.ok(total / n < 3, `${format}: mean difference ${(total / n).toFixed(2)} levels`);
  }
});

test('a card taller than the WebP or JPEG encoder takes is drawn whole at fewer device pixels, not refused', async () => {
  // WebP's sides stop at 16,383 pixels, JPEG's at 65,535. 20,000 emoji on a narrow card are drawn
  // at under a third of a device pixel per CSS pixel, where the engine's rounding to whole device
  // pixels makes the card taller than its scale says.
  const emoji = normalizeFxTwitter(200, CRAFTED_POSTS.find((p) => p.name === '20,000 emoji')!.body);
  assert.equal(emoji.kind, 'found');
  for (const [format, post, scale, limit] of [
    ['webp', corpusPost('emoji', { text: `top${'\n'.repeat(600)}bottom` }), 3, 16_383],
    ['jpeg', corpusPost('emoji', { text: `top${'\n'.repeat(4000)}bottom` }), 1, 65_535],
    ['webp', (emoji as { post: Post }).post, 3, 16_383],
  ] as const) {
    const out = await renderCard(post, new Map(), { format, theme: 'light', scale, width: 300 });
    const { width, height, format: read } = await sharp(out.bytes).metadata();
    assert.equal(read, format);
    assert.ok(height! <= limit && height! > limit * 0.9, `${format}: ${width}×${height}, near its limit`);
    assert.ok(width! < 300 * scale, `${format}: drawn at fewer device pixels (${width} px wide)`);
  }
});

test('a card too large at its scale is drawn at a sixteenth step, where emoji stay fast to draw', async () => {
  // Between sixteenths (2.52, 1.86) the engine drew each emoji slower the more it had drawn:
  // 650 lines of emoji at 3x took 27 s, past the render timeout.
  const post = corpusPost('emoji', { text: `${'😀'.repeat(10)}\n`.repeat(300) });
  const png = PNG.sync.read(
    (await renderCard(post, new Map(), { format: 'png', theme: 'light', scale: 3, width: 1000 })).bytes,
  );
  assert.ok(png.width < 3000 && png.width * png.height <= 60e6, `${png.width}×${png.height}`);
  const sixteenths = (png.width / 1000) * 16;
  assert.ok(Math.abs(sixteenths - Math.round(sixteenths)) < 0.02, `${png.width} px wide: 1,000 px at a sixteenth step`);
});

test('a poll whose total is older than its counts shows shares of the counts, none over 100 %', async () => {
  const post = corpusPost('emoji', {
    text: 'Which?',
    poll: [
      ['a', 1],
      ['b', 2],
    ],
  });
  const stale = { ...post, poll: { ...post.poll!, totalVotes: 1 } };
  const html = (await renderCard(stale, new Map(), { format: 'html', theme: 'light' })).bytes.toString();
  assert.match(html, />33\.3%</);
  assert.match(html, />66\.7%</);
  assert.doesNotMatch(html, /200(\.0)?%/);
});

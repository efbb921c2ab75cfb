import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { encodeRaster } from '../../src/render/engine-takumi.ts';
import { buildCardTree, renderCard } from '../../src/render/renderer.ts';
import sharp from '../../src/render/sharp-setup.ts';
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

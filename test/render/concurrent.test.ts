import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost, mediaFromFixtures } from './support.ts';

test('cards drawn at once (raster and deflate off the thread) are byte for byte the cards drawn alone', async (t) => {
  const { fixture, media } = await mediaFromFixtures();
  t.after(() => fixture.close());
  const cards = await Promise.all(
    ['1900000000000000018', '1900000000000000011', '1900000000000000014'].map(async (id) => {
      const post = loadPost(SAMPLES_DIR, id);
      return { post, assets: await loadAssets(post, media, 2) };
    }),
  );
  const draw = (i: number) => renderCard(cards[i].post, cards[i].assets, { format: 'png', theme: 'dark', scale: 2 }).then((r) => r.bytes);
  const alone = [await draw(0), await draw(1), await draw(2)];
  const together = await Promise.all([draw(0), draw(1), draw(2), draw(0)]);
  together.forEach((png, i) => assert.ok(png.equals(alone[i % 3]), `card ${i % 3}`));
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { XMLValidator } from 'fast-xml-parser';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { FixtureServer } from '../../src/sources/fixture-server.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import { hasShared, listBodies, SHARED_FIXTURES } from '../fixtures.ts';
import { differenceFromResvg, loadPost, mediaFromFixtures } from './support.ts';

// Every recorded post renders in both themes (no image made from these files is committed).
let fixture: FixtureServer;
let media: MediaFetcher;
before(async () => ({ fixture, media } = await mediaFromFixtures()));
after(() => fixture.close());

const idsOf = (files: string[]) =>
  [...new Set(files.map((f) => path.basename(f, '.json')))].filter((id) => /^\d+$/.test(id));
const ids = hasShared ? idsOf([...listBodies('syndication'), ...listBodies('fxtwitter')]) : [];
// Earlier captures of some of the same posts, in the endpoint's older shape.
const olderIds = hasShared ? idsOf(listBodies('syndication-older-shape')) : [];

test('recorded fixtures are present', (t) => {
  if (!hasShared) {
    t.diagnostic(`../shared/fixtures not found at ${SHARED_FIXTURES}: skipping recorded renders`);
    t.skip('../shared/fixtures is not present');
    return;
  }
  assert.ok(ids.length >= 20, `${ids.length} recorded posts`);
  assert.ok(olderIds.length >= 4, `${olderIds.length} older captures`);
});

const recorded = [
  ...ids.map((id) => ({ id, label: id, kinds: undefined })),
  ...olderIds.map((id) => ({ id, label: `${id} (older shape)`, kinds: ['syndication-older-shape'] as const })),
];

for (const { id, label, kinds } of recorded) {
  test(`recorded post ${label} renders as PNG and SVG in both themes`, async () => {
    const post = loadPost(SHARED_FIXTURES, id, kinds);
    const assets = await loadAssets(post, media, 2);
    for (const theme of ['light', 'dark'] as const) {
      const bytes = (await renderCard(post, assets, { format: 'png', theme })).bytes;
      const png = PNG.sync.read(bytes);
      assert.equal(png.width, 1100);
      assert.ok(png.height >= 200 && png.height < 6000, `height ${png.height}`);
      const svg = (await renderCard(post, assets, { format: 'svg', theme })).bytes.toString();
      assert.equal(XMLValidator.validate(svg), true);
      // The SVG output is the same card: resvg drawing it must look like the PNG. Glyph edges,
      // antialiased by two rasterizers, differ most on dense CJK text (0.8 % of pixels).
      const ratio = differenceFromResvg(bytes, svg);
      assert.ok(
        ratio < 0.01,
        `${theme}: ${(ratio * 100).toFixed(2)} % of pixels differ from resvg's drawing of the SVG`,
      );
    }
  });
}

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { FixtureServer } from '../../src/sources/fixture-server.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, screenshotHtml, useChromium } from './html-match.ts';
import { mediaFromFixtures } from './support.ts';

let fixture: FixtureServer;
let media: MediaFetcher;
useChromium();
before(async () => {
  ({ fixture, media } = await mediaFromFixtures());
});
after(async () => {
  await fixture?.close();
});

// X draws a counter of zero as its icon with no number: a new post's row is not "0 0 5 0".
for (const theme of ['light', 'dim'] as const) {
  test(`counts of zero show their icons alone, as in Chromium (${theme})`, async (t) => {
    const post = {
      ...corpusPost('emoji', { text: 'No replies yet.' }),
      counts: { replies: 0, reposts: 0, likes: 5, bookmarks: 0, views: 40 },
    };
    const assets = await loadAssets(post, media, 2);
    const html = (await renderCard(post, assets, { format: 'html', theme })).bytes.toString();
    const shot = await screenshotHtml(html);
    const lines = shot.text.split('\n');
    assert.deepEqual(lines.slice(lines.findIndex((l) => l.includes('2026')) + 1), ['5', '40']);
    await assertHtmlMatchesPng(t, 'zero-counts', post, assets, theme, { width: 300 });
  });
}

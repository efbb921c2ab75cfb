import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, screenshotHtml, useChromium } from './html-match.ts';
import { useFixtureMedia } from './support.ts';

const media = useFixtureMedia();
useChromium();

// X draws a counter of zero as its icon with no number: a new post's row is not "0 0 5 0".
for (const theme of ['light', 'dim'] as const) {
  test(`counts of zero show their icons alone, as in Chromium (${theme})`, async (t) => {
    const post = {
      ...corpusPost('emoji', { text: 'No replies yet.' }),
      counts: { replies: 0, reposts: 0, likes: 5, bookmarks: 0, views: 40 },
    };
    const assets = await loadAssets(post, media(), 2);
    const html = (await renderCard(post, assets, { format: 'html', theme })).bytes.toString();
    const shot = await screenshotHtml(html);
    const lines = shot.text.split('\n');
    assert.deepEqual(lines.slice(lines.findIndex((l) => l.includes('2026')) + 1), ['5', '40']);
    await assertHtmlMatchesPng(t, 'zero-counts', post, assets, theme, { width: 300 });
  });
}

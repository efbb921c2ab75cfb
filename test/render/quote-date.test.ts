import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { parseOptions } from '../../src/render/options.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { Post } from '../../src/sources/post.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, screenshotHtml, useChromium } from './html-match.ts';
import { useFixtureMedia } from './support.ts';

const media = useFixtureMedia();
useChromium();

// The quote header's date is in timeZoneOffset, as the date line is: a post quoting one from
// twenty minutes earlier, across midnight in UTC but not in UTC+9, shows one day for both.
for (const [zone, postDay, quoteDay] of [
  ['UTC+9', 'Apr 3, 2026', 'Apr 3, 2026'],
  ['UTC-5', 'Apr 2, 2026', 'Apr 2, 2026'],
  ['UTC', 'Apr 3, 2026', 'Apr 2, 2026'],
] as const) {
  test(`the quoted post's date is in the card's offset (${zone}), as in Chromium`, async (t) => {
    const quoted: Post = { ...corpusPost('hebrew'), createdAt: '2026-04-02T23:50:00.000Z' };
    const post: Post = {
      ...corpusPost('emoji', { text: 'Twenty minutes later:' }),
      createdAt: '2026-04-03T00:10:00.000Z',
      quoted,
    };
    const options = parseOptions({ timeZoneOffset: zone, width: '400' });
    const assets = await loadAssets(post, media(), 2);
    const html = (await renderCard(post, assets, { ...options, format: 'html' })).bytes.toString();
    const text = (await screenshotHtml(html)).text;
    // The quote header's day, then the date line's.
    assert.match(text, new RegExp(`· ${quoteDay}\\n[\\s\\S]*UTC[^\\n]* · ${postDay}`));
    await assertHtmlMatchesPng(t, `quote-date-${zone}`, post, assets, options.theme, options);
  });
}

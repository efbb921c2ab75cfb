import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, screenshotHtml, useChromium } from './html-match.ts';
import { useFixtureMedia } from './support.ts';

const media = useFixtureMedia();
useChromium();

// showFullText=false: a quoted long post is cut where the post itself would be, with "Show more",
// as X shows a quoted note; not forty lines of quote under a one-line post.
// Known to differ: Chromium sets 15 px Japanese lines of 20 px one device pixel higher than the
// engine (its half-leading rounds the other way), which moves every line but breaks none.
for (const [label, key, text, max] of [
  ['Arabic', 'arabic', 'هذا نص عربي طويل جدا يتكرر عدة مرات لاختبار قص النص الطويل في البطاقة. '.repeat(20), undefined],
  ['Japanese', 'emoji', 'これは長い日本語の文章で、カードの中で切り取られるかどうかを確認します。'.repeat(20), 0.025],
] as const) {
  test(`a quoted long ${label} post is cut with "Show more", as in Chromium`, async (t) => {
    const quoted = { ...corpusPost(key, { text, poll: undefined }), isNote: true };
    const post = { ...corpusPost('emoji', { text: 'Worth reading:' }), quoted };
    const assets = await loadAssets(post, media(), 2);
    const options = { showFullText: false, width: 400 };
    const html = (await renderCard(post, assets, { ...options, format: 'html', theme: 'light' })).bytes.toString();
    const lines = (await screenshotHtml(html)).text.split('\n');
    assert.ok(lines.includes('Show more'), 'the quote ends in "Show more"');
    assert.ok(lines.join('').length < text.length / 2, 'the quote shows X’s visible length, not the whole text');
    await assertHtmlMatchesPng(t, `quote-cut-${key}`, post, assets, 'light', options, max);
  });
}

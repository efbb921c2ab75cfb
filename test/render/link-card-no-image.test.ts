import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { Post } from '../../src/sources/post.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, screenshotHtml, useChromium } from './html-match.ts';
import { useFixtureMedia } from './support.ts';

const media = useFixtureMedia();
useChromium();

const DESCRIPTION = 'ينشر البنك المركزي قراره بشأن أسعار الفائدة مع ملخص لأسباب القرار.';

// A large card without its image (the source sent none, or showMedia=false) keeps its description:
// drawn small, not as a frame around a domain and a title under a missing picture.
for (const [label, showMedia, image] of [
  ['no image', true, undefined],
  ['showMedia=false', false, { url: 'https://pbs.twimg.com/media/PScard01.png', width: 1200, height: 628 }],
] as const) {
  test(`a large link card with ${label} keeps its description, as in Chromium`, async (t) => {
    const post: Post = {
      ...corpusPost('emoji', { text: 'Rates: https://example.com/rates' }),
      card: {
        url: 'https://example.com/rates',
        domain: 'example.com',
        title: 'Central bank holds rates steady',
        description: DESCRIPTION,
        image,
        large: true,
      },
    };
    const assets = await loadAssets(post, media(), 2);
    const options = { showMedia, width: 400 };
    const html = (await renderCard(post, assets, { ...options, format: 'html', theme: 'dim' })).bytes.toString();
    const text = (await screenshotHtml(html)).text;
    assert.ok(text.split('\n').includes(DESCRIPTION), 'the description shows');
    await assertHtmlMatchesPng(t, `link-card-no-image-${showMedia}`, post, assets, 'dim', options);
  });
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCard } from '../../src/render/renderer.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, chromium, useChromium } from './html-match.ts';

// A right-to-left poll label sits at its bar's start, as X sets it in its left-to-right row: set at
// its own line's start it stood by the share, away from its bar.

useChromium();

const post = corpusPost('arabic', {
  text: 'ما هو كتابك المفضل هذا العام؟',
  poll: [
    ['رواية', 120],
    ['شعر', 80],
  ],
});

test('a right-to-left poll label starts at its bar, in our HTML as drawn by Chromium', async () => {
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light' })).bytes.toString();
  const page = await chromium().newPage();
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const gaps = await page.evaluate(
    (labels) => {
      const blocks = [...document.querySelectorAll<HTMLElement>('div')].filter((e) => labels.includes(e.textContent!));
      return blocks.map((block) => {
        const range = document.createRange();
        range.selectNodeContents(block);
        // The label's ink against its row's start, where its bar starts.
        return range.getBoundingClientRect().left - block.parentElement!.getBoundingClientRect().left;
      });
    },
    ['رواية', 'شعر'],
  );
  await page.close();
  assert.equal(gaps.length, 2);
  for (const gap of gaps) assert.ok(gap <= 12, `the label starts ${gap} px from its bar's start`);
});

for (const theme of ['light', 'dark'] as const) {
  test(`HTML in Chromium matches the PNG: a right-to-left poll (${theme})`, async (t) => {
    await assertHtmlMatchesPng(t, 'poll-rtl-label', post, new Map(), theme);
  });
}

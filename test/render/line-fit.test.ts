import { test } from 'node:test';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// A line exactly as wide as its box: 25 digits of Noto Sans at 20 px are 286 px, the text's width
// in a 320 px card. Chromium keeps them on one line; the engine's sum of their advances came to
// 286.00003 px, and it moved the last digit to the next line.
useChromium();

for (const [label, key, text] of [
  ['digits', 'chinese-traditional', '訂單編號：2026040212345678901234567890，請於７日內取貨。'],
  ['latin', 'emoji', 'Tracking 1234567890123456789012345 1234567890123456789012345 arrives today'],
] as const) {
  test(`a line as wide as its box stays one line, as in Chromium: ${label}`, async (t) => {
    const post = corpusPost(key, { text });
    await assertHtmlMatchesPng(t, `line-fit-${label}`, post, new Map(), 'light', { width: 320 });
  });
}

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import type { Assets } from '../../src/render/assets.ts';
import type { RenderOptionsFull } from '../../src/render/options.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { ThemeName } from '../../src/render/theme.ts';
import type { Post } from '../../src/sources/post.ts';
import { launchChromium } from './chromium.ts';
import { OUTPUT_DIR, pixelDifference, worstSquare } from './support.ts';

// The HTML output, screenshotted by Chromium, must look like the PNG of the same post: same size,
// and few pixels apart. Both lay out the same markup with the same fonts; glyph edges are
// antialiased by two rasterizers, so a small share of pixels along text outlines differ.
export const MAX_DIFFERENT_PIXELS = 0.015;
// Nor in any one place: a misshaped conjunct or a broken ligature is a few squares of a card
// whose other pixels agree (a Bengali card with প্র drawn প্‌র: 3.9 % of it, 31 % of one square).
export const MAX_DIFFERENT_IN_A_SQUARE = 0.2;

let browser: Browser | undefined;

/** Chromium for the calling file's tests: launched before them, closed after them. */
export function useChromium(): void {
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
}

export function chromium(): Browser {
  if (!browser) throw new Error('useChromium() first');
  return browser;
}

export async function screenshotHtml(html: string) {
  const context = await chromium().newContext({
    viewport: { width: 600, height: 800 },
    deviceScaleFactor: 2,
    javaScriptEnabled: true,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const card = page.locator('body > div');
  const png = await card.screenshot({ omitBackground: true });
  const text = await card.innerText();
  await context.close();
  return { png, requests, dialogs, text };
}

export async function assertHtmlMatchesPng(
  t: TestContext,
  label: string,
  post: Post,
  assets: Assets,
  theme: ThemeName,
  options: Partial<RenderOptionsFull> = {},
  maxDifferent = MAX_DIFFERENT_PIXELS,
  maxInASquare = MAX_DIFFERENT_IN_A_SQUARE,
) {
  const html = (await renderCard(post, assets, { ...options, format: 'html', theme })).bytes.toString();
  const png = (await renderCard(post, assets, { ...options, format: 'png', theme, scale: 2 })).bytes;
  const shot = await screenshotHtml(html);
  assert.deepEqual(shot.requests, [], 'the page makes no request');
  assert.deepEqual(shot.dialogs, [], 'the page runs no script');
  const a = PNG.sync.read(png);
  const b = PNG.sync.read(shot.png);
  assert.equal(b.width, a.width, 'same width');
  assert.equal(b.height, a.height, 'same height');
  const { ratio, diff } = pixelDifference(png, shot.png);
  const square = worstSquare(png, shot.png);
  t.diagnostic(
    `${(ratio * 100).toFixed(2)}% of pixels differ, ${(square * 100).toFixed(1)}% of the worst 32 px square`,
  );
  if (ratio > maxDifferent || square > maxInASquare) {
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    fs.writeFileSync(path.join(OUTPUT_DIR, `html-${label}-${theme}.chromium.png`), shot.png);
    fs.writeFileSync(path.join(OUTPUT_DIR, `html-${label}-${theme}.png`), png);
    fs.writeFileSync(path.join(OUTPUT_DIR, `html-${label}-${theme}.diff.png`), PNG.sync.write(diff));
  }
  assert.ok(ratio <= maxDifferent, `${(ratio * 100).toFixed(2)}% of pixels differ (see test/.output)`);
  assert.ok(square <= maxInASquare, `${(square * 100).toFixed(1)}% of one 32 px square differs (see test/.output)`);
}

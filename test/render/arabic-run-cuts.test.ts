import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { renderCard } from '../../src/render/renderer.ts';
import type { ThemeName } from '../../src/render/theme.ts';
import { corpusPost } from './corpus.ts';
import { chromium, MAX_DIFFERENT_PIXELS, useChromium } from './html-match.ts';
import { OUTPUT_DIR, pixelDifference, worstSquare } from './support.ts';

// A left-to-right name ending in an Arabic run is cut at its right edge, so from the run's logical
// start: "Omar Abdullah Farouk عمرو" keeps "رو…". Chromium draws what it keeps from the whole
// line's shaping: a kept letter that joined the letter cut off before it keeps its joined form
// (ـرو, ـامي, ـى), and one that did not stays unjoined (و after ر, مي after ا: ا د ر و join
// nothing after them). The engine reshaped the kept text alone and drew every such letter unjoined.
useChromium();

// The cut's end of the name, in CSS px: the ellipsis and the letters before it.
const CUT_REGION = 48;
// In 16 px squares of the cut region at 2x: one letter drawn unjoined differs by 6 % (ر, ا) to
// 26 % (ى) of one, joined to nothing by 7-8 % (م, ا); drawn as Chromium draws it, by 2 % at most.
const MAX_IN_A_SQUARE = 0.05;

/** The rows and columns of `png` inside `box` (device pixels), as a PNG. */
function cropPng(png: Buffer, box: { x: number; y: number; width: number; height: number }): Buffer {
  const from = PNG.sync.read(png);
  const out = new PNG({ width: box.width, height: box.height });
  for (let y = 0; y < box.height; y++) {
    const start = ((box.y + y) * from.width + box.x) * 4;
    from.data.copy(out.data, y * box.width * 4, start, start + box.width * 4);
  }
  return PNG.sync.write(out);
}

/** Chromium's screenshot of the card's HTML, and the name's box in it (CSS px from the card). */
async function screenshotName(html: string, name: string) {
  const context = await chromium().newContext({ viewport: { width: 600, height: 800 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const card = page.locator('body > div');
  const png = await card.screenshot({ omitBackground: true });
  const box = await card.evaluate((el, text) => {
    const line = [...el.querySelectorAll('div')].find(
      (d) => d.style.textOverflow === 'ellipsis' && d.textContent === text,
    );
    const at = line?.getBoundingClientRect();
    const origin = el.getBoundingClientRect();
    return at && { x: at.x - origin.x, y: at.y - origin.y, width: at.width, height: at.height };
  }, name);
  await context.close();
  return { png, box };
}

for (const [label, name, width, joined] of [
  ['alef after seen', 'Samuel Alexander Collins سامي', 357, true],
  ['meem after alef', 'Samuel Alexander Collins سامي', 354, false],
  ['yeh after meem', 'Samuel Alexander Collins سامي', 350, true],
  ['reh after meem', 'Omar Abdullah Farouk عمرو', 328, true],
  ['waw after reh', 'Omar Abdullah Farouk عمرو', 322, false],
  ['alef maksura after lam', 'Lina Marie Haddad ليلى داود', 328, true],
  ['alef after dal', 'Lina Marie Haddad ليلى داود', 306, false],
] as const) {
  for (const theme of ['light', 'dark'] as ThemeName[]) {
    test(`a left-to-right name cut in its Arabic run keeps joined only what joined, as in Chromium: ${label}, ${theme}`, async (t) => {
      const post = corpusPost('emoji', { name, text: 'Hello', poll: undefined });
      const html = (await renderCard(post, new Map(), { width, format: 'html', theme })).bytes.toString();
      const png = (await renderCard(post, new Map(), { width, format: 'png', theme, scale: 2 })).bytes;
      const shot = await screenshotName(html, name);
      assert.ok(shot.box, 'the name is found in the HTML');
      const ours = PNG.sync.read(png);
      assert.equal(ours.width, PNG.sync.read(shot.png).width, 'same width');
      const right = Math.round((shot.box.x + shot.box.width) * 2);
      const region = {
        x: right - CUT_REGION * 2,
        y: Math.round(shot.box.y * 2),
        width: CUT_REGION * 2,
        height: Math.round(shot.box.height * 2),
      };
      const a = cropPng(png, region);
      const b = cropPng(shot.png, region);
      const square = worstSquare(a, b, 16);
      const { ratio } = pixelDifference(png, shot.png);
      t.diagnostic(`${joined ? 'joined' : 'unjoined'}: ${(square * 100).toFixed(1)}% of the cut's worst 16 px square`);
      if (square > MAX_IN_A_SQUARE || process.env.POSTSHOT_WRITE_CUTS) {
        const base = path.join(OUTPUT_DIR, `arabic-run-cut-${label.replaceAll(' ', '-')}-${theme}`);
        fs.mkdirSync(OUTPUT_DIR, { recursive: true });
        fs.writeFileSync(`${base}.png`, png);
        fs.writeFileSync(`${base}.chromium.png`, shot.png);
      }
      assert.ok(ratio <= MAX_DIFFERENT_PIXELS, `${(ratio * 100).toFixed(2)}% of pixels differ (see test/.output)`);
      assert.ok(square <= MAX_IN_A_SQUARE, `${(square * 100).toFixed(1)}% of one square of the cut differs`);
    });
  }
}

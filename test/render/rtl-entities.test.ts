import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCard } from '../../src/render/renderer.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, chromium, useChromium } from './html-match.ts';

// Mentions, cashtags and links in a right-to-left post read left to right, as X shows them
// ("@vercel", not "vercel@"); a hashtag by its own first letter ("#PAKvAUS", "#الرياض").
useChromium();

const TEXTS = {
  'arabic-mentions': 'شكراً لـ @vercel و @github على الدعم! سعر $BTC اليوم مرتفع. التفاصيل: https://example.com/ar/news',
  'urdu-hashtags': 'پاکستان نے میچ جیت لیا! 🏏 کیا آپ نے دیکھا؟ #PAKvAUS #کرکٹ اور @TheRealPCB کو مبارک ہو',
  'hebrew-link-wraps':
    'מבצע סוף שבוע: 30% הנחה על פירות! למימוש באפליקציה: https://shufersal.co.il/sale?id=42. שאלות? @shufersal',
};

for (const [label, text] of Object.entries(TEXTS)) {
  for (const width of [300, 420, 550]) {
    test(`entities in a right-to-left post wrap as in Chromium: ${label} at ${width} px`, async (t) => {
      await assertHtmlMatchesPng(
        t,
        `rtl-entities-${label}-${width}`,
        corpusPost('arabic', { text, poll: undefined }),
        new Map(),
        'light',
        {
          width,
        },
      );
    });
  }
}

test('the @ of a mention and the $ of a cashtag are drawn before them, left of the letters', async () => {
  const post = corpusPost('arabic', { text: TEXTS['arabic-mentions'], poll: undefined });
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light' })).bytes.toString();
  const page = await chromium().newPage();
  await page.setContent(html);
  // Where the sign and the first letter after it are drawn, in each entity starting with one
  // (no function inside: the test runner's transform would name it, unknown in the page).
  const signs = await page.evaluate(() =>
    [...document.querySelectorAll('a')]
      .filter((s) => /^[@$]/.test(s.textContent ?? ''))
      .map((s) => {
        const [sign, letter] = [0, 1].map((from) => {
          const range = document.createRange();
          range.setStart(s.firstChild!, from);
          range.setEnd(s.firstChild!, from + 1);
          return range.getBoundingClientRect().left;
        });
        return { text: s.textContent, sign, letter };
      }),
  );
  await page.close();
  assert.equal(signs.length, 3);
  for (const s of signs) assert.ok(s.sign < s.letter, `${s.text}: the sign is drawn left of its letters`);
});

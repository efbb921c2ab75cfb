import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCard } from '../../src/render/renderer.ts';
import type { Post } from '../../src/sources/post.ts';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, chromium, useChromium } from './html-match.ts';

// The quote header (avatar, name, badge, "@handle", "· date"): the name is cut only when the line
// does not fit, and before the handle; the handle only past its share of the line, or where a
// short name leaves it less; the date never. Each case is drawn by Chromium from our HTML (what it cuts)
// and compared with our PNG (that the engine cuts the same).

useChromium();

function quoting(name: string, handle: string, key = 'emoji'): Post {
  const post = corpusPost('emoji', { name: 'Dana', handle: 'dana', text: 'Quoting this one.', poll: undefined });
  const quoted = corpusPost(key, { name, handle, text: 'The quoted text.', poll: undefined });
  return { ...post, quoted: { ...quoted, author: { ...quoted.author, verification: 'blue' } } };
}

interface Shown {
  nameCut: boolean;
  handleCut: boolean;
  dateWhole: boolean;
  inside: boolean;
  name: number;
  handle: number;
}

/** How Chromium lays out the quote header of our HTML. */
async function quoteHeaderIn(post: Post, width: number): Promise<Shown> {
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light', width })).bytes.toString();
  const page = await chromium().newPage();
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const shown = await page.evaluate((text) => {
    const handle = [...document.querySelectorAll<HTMLElement>('div')].find((e) => e.textContent === text)!;
    const row = handle.parentElement!;
    const name = [...row.children].find((e) => e.tagName === 'DIV') as HTMLElement;
    const date = handle.nextElementSibling as HTMLElement;
    // No function declared in here: the page has no helper for the names tsx gives them.
    return {
      nameCut: name.scrollWidth > name.clientWidth,
      handleCut: handle.scrollWidth > handle.clientWidth,
      dateWhole: date.scrollWidth <= date.clientWidth,
      inside: date.getBoundingClientRect().right <= row.getBoundingClientRect().right + 0.5,
      name: name.getBoundingClientRect().width,
      handle: handle.getBoundingClientRect().width,
    };
  }, `@${post.quoted!.author.handle}`);
  await page.close();
  return shown;
}

const SHORT_NAME = 'Alexandra Montgomery';
const MEDIUM_NAME = 'Alexandra Montgomery-Winterbottom';
const LONG_NAME = 'Alexandra Montgomery-Winterbottom of the Northern Isles';
const LONG_HANDLE = 'a_handle_of_max_len_';
const KERNED_HANDLE = 'AJ_J_J_EJ_TT';
const RTL_NAME = `مكتبة الإسكندرية ${'الكبرى والعربية '.repeat(3)}`.trim();

for (const [label, name, handle, width, want] of [
  // The whole line fits: nothing is cut, however much of it the name or the handle takes.
  ['short name, long handle', SHORT_NAME, LONG_HANDLE, 550, { nameCut: false, handleCut: false }],
  ['medium name, short handle', MEDIUM_NAME, 'amw', 550, { nameCut: false, handleCut: false }],
  ['tiny name, long handle', 'Sam', LONG_HANDLE, 450, { nameCut: false, handleCut: false }],
  // It does not: the name gives way first, the handle stays whole.
  ['short name, medium handle', SHORT_NAME, 'montgomery', 400, { nameCut: true, handleCut: false }],
  ['long name, short handle', LONG_NAME, 'amw', 550, { nameCut: true, handleCut: false }],
  ['long name, long handle', LONG_NAME, LONG_HANDLE, 550, { nameCut: true, handleCut: false }],
  // A handle of pairs Noto Sans kerns apart (_J, AJ, EJ, TT) is wider than its glyphs' advances.
  ['long name, kerned handle', LONG_NAME, KERNED_HANDLE, 550, { nameCut: true, handleCut: false }],
  // A handle longer than its share is cut there, and leaves the name the rest; after a short name
  // it takes all the name leaves.
  ['tiny name, long handle', 'Sam', LONG_HANDLE, 400, { nameCut: false, handleCut: true }],
  ['long name, long handle', LONG_NAME, LONG_HANDLE, 300, { nameCut: true, handleCut: true }],
  ['tiny name, long handle', 'Sam', LONG_HANDLE, 300, { nameCut: false, handleCut: true }],
] as const) {
  test(`quote header, ${label} at ${width} px: the name is cut only when the line does not fit`, async (t) => {
    const post = quoting(name, handle);
    const shown = await quoteHeaderIn(post, width);
    assert.equal(shown.nameCut, want.nameCut, `the name is ${shown.nameCut ? '' : 'not '}cut`);
    assert.equal(shown.handleCut, want.handleCut, `the handle is ${shown.handleCut ? '' : 'not '}cut`);
    assert.ok(shown.dateWhole && shown.inside, 'the date is whole and inside the quote');
    assert.ok(shown.name >= 24 && shown.handle >= 24, `name ${shown.name} px, handle ${shown.handle} px`);
    const slug = `${label.replaceAll(/[ ,]+/g, '-')}-${width}`;
    await assertHtmlMatchesPng(t, `quote-header-${slug}`, post, new Map(), 'light', { width });
  });
}

// A right-to-left name is cut as Chromium cuts it: the letter before the ellipsis keeps the form it
// has inside its word (the engine drew "مكت…" where Chromium drew "مكتبة…").
for (const width of [550, 300]) {
  test(`quote header, right-to-left name at ${width} px: cut where Chromium cuts it`, async (t) => {
    const post = quoting(RTL_NAME, 'bibalex_official', 'arabic');
    const shown = await quoteHeaderIn(post, width);
    assert.ok(shown.nameCut, 'the name is cut');
    await assertHtmlMatchesPng(t, `quote-header-rtl-${width}`, post, new Map(), 'light', { width }, undefined, 0.1);
  });
}

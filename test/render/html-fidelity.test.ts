import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { loadAssets } from '../../src/render/load-assets.ts';
import { parseOptions } from '../../src/render/options.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { THEMES } from '../../src/render/theme.ts';
import type { FixtureServer } from '../../src/sources/fixture-server.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { CORPUS, corpusPost, edgePosts } from './corpus.ts';
import { assertHtmlMatchesPng, chromium, MAX_DIFFERENT_PIXELS, screenshotHtml, useChromium } from './html-match.ts';
import { differenceFromResvg, loadPost, mediaFromFixtures, pixelDifference } from './support.ts';

let fixture: FixtureServer;
let media: MediaFetcher;
useChromium();
before(async () => {
  ({ fixture, media } = await mediaFromFixtures());
});
after(async () => {
  await fixture?.close();
});

for (const [id, name] of [
  ['1900000000000000001', 'entities-emoji'],
  ['1900000000000000002', 'arabic'],
  ['1900000000000000003', 'hebrew'],
  ['1900000000000000004', 'cjk'],
  ['1900000000000000005', 'thai-devanagari'],
  ['1900000000000000008', 'four-photos'],
  ['1900000000000000010', 'poll'],
  ['1900000000000000011', 'quote'],
  ['1900000000000000013', 'long-note'],
  ['1900000000000000016', 'link-card'],
] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`HTML in Chromium matches the PNG: ${name} (${theme})`, async (t) => {
      const post = loadPost(SAMPLES_DIR, id);
      await assertHtmlMatchesPng(t, name, post, await loadAssets(post, media, 2), theme);
    });
  }
}

// The container is part of the same tree: gradient, padding, and a card scaled down to fit.
for (const [id, name, query] of [
  [
    '1900000000000000006',
    'container-gradient-4x5',
    { aspectRatio: '4:5', containerBackground: 'linear-gradient(135deg, #ff5f6d, #ffc371)' },
  ],
  [
    '1900000000000000013',
    'container-scaled-16x9',
    { aspectRatio: '16:9', containerBackground: '#1d9bf0', borderRadius: '0' },
  ],
  [
    '1900000000000000008',
    'container-width-320',
    { width: '320', containerBackground: 'rgba(0,0,0,0.5)', containerPadding: '40' },
  ],
] as const) {
  test(`HTML in Chromium matches the PNG: ${name}`, async (t) => {
    const post = loadPost(SAMPLES_DIR, id);
    const options = parseOptions(query);
    // A scaled card's glyphs land off the pixel grid: more of its pixels are antialiased edges.
    const max = name.includes('scaled') ? 0.025 : MAX_DIFFERENT_PIXELS;
    await assertHtmlMatchesPng(t, name, post, await loadAssets(post, media, 2), 'light', options, max);
  });
}

// Known to differ in one place: the engine shapes a Mongolian suffix after U+202F apart from its
// word (ᠤᠯᠤᠰ\u202fᠤᠨ), where Chromium joins it. Japanese with Latin words: the break before a
// small kana costs its pair's kerning (word-breaks.ts), a pixel that moves the rest of the line.
const KANA_KERNING = 0.35;
const LOCAL_DIFFERENCE: Record<string, number> = { odia: 0.4, japanese: KANA_KERNING };

for (const key of Object.keys(CORPUS)) {
  for (const theme of ['light', 'dark'] as const) {
    test(`HTML in Chromium matches the PNG: ${key} corpus post (${theme})`, async (t) => {
      await assertHtmlMatchesPng(t, key, corpusPost(key), new Map(), theme, {}, undefined, LOCAL_DIFFERENCE[key]);
    });
  }
}

// Full-width punctuation side by side: Chromium halves such pairs by default, the engine does not.
for (const [key, text] of [
  [
    'chinese-traditional',
    '故宮博物院公告：「特別展覽」《清明上河圖》【限時開放】，請大家準時參觀。『門票』、「導覽」與（講座）都需要預約！',
  ],
  [
    'japanese-korean',
    '東京国立博物館「特別展」（入場無料）、『図録』は販売中。「こんにちは」と言いました。【お知らせ】',
  ],
] as const) {
  test(`HTML in Chromium matches the PNG: adjacent CJK punctuation (${key})`, async (t) => {
    await assertHtmlMatchesPng(t, `${key}-punctuation`, corpusPost(key, { text }), new Map(), 'light');
  });
}

// Before small kana and ー a browser breaks as before any kana; at these widths lines end before
// them, in a paragraph of Japanese alone and in one with Latin words, a link and a score (whose
// "/" and "3-1" break as before).
for (const [label, text, width, inASquare] of [
  ['mixed', corpusPost('japanese').text, 300, KANA_KERNING],
  ['mixed', corpusPost('japanese').text, 400, KANA_KERNING],
  [
    'alone',
    'キャッチャーミットとバッティンググローブ、ユニフォームをリュックにつめて、ジョギングしながらグラウンドへ。ちょっとしたトラブルでシャワーが使えなかったっぽい。',
    300,
  ],
  [
    'alone',
    'ショッピングモールでチョコレートパフェ食べた🍫✨ シャッターチャンス逃しちゃったけど、ジューシーなフルーツがいっぱいでキュッとなった。',
    400,
  ],
  ['link', 'See https://zenn.dev/yukky/articles/2025-first-pr ちょっと', 300, KANA_KERNING],
  ['score', 'ワールドカップ最終予選⚽️ 日本 3-1 オーストラリア！！ 次戦は9月5日（金）キックオフ', 350, KANA_KERNING],
] as const) {
  test(`HTML in Chromium matches the PNG: Japanese lines ending before small kana and ー (${label}, ${width} px)`, async (t) => {
    const post = corpusPost('japanese', { text });
    const options = { width };
    await assertHtmlMatchesPng(
      t,
      `japanese-${label}-${width}`,
      post,
      new Map(),
      'light',
      options,
      undefined,
      inASquare,
    );
  });
}

// Curly quotes between Chinese or Korean characters: a browser ends a line before an opening one or
// after a closing one (UAX #14 since Unicode 15.1).
for (const [label, key, text, width] of [
  [
    'chinese',
    'chinese-traditional',
    '他笑着说：“今天天气真好，我们去公园散步吧。”然后我们就出发了。妈妈说：“记得带伞！”可是我们都忘了。“下次一定记得，”他说。',
    400,
  ],
  [
    'korean',
    'japanese-korean',
    '“안녕하십니까”와 “안녕하세요”의 차이를 아시나요? 둘 다 표준어이지만, 격식의 정도가 다릅니다. 자세한 내용은 우리말샘에서 확인하세요!',
    300,
  ],
] as const) {
  test(`HTML in Chromium matches the PNG: lines ending at curly quotes in ${label}`, async (t) => {
    await assertHtmlMatchesPng(t, `quotes-${label}`, corpusPost(key, { text }), new Map(), 'light', { width });
  });
}

// A joiner after a letter of a script that never joins, drawn once a face with joiners is loaded.
test('HTML in Chromium matches the PNG: ZWJ and ZWNJ after Latin, Cyrillic, Hebrew, Thai and CJK letters', async (t) => {
  await renderCard(corpusPost('indic'), new Map(), { format: 'png', theme: 'light' });
  const text =
    'ァ\u200d漢\u200d 中\u200c文 한\u200c국 a\u200db Ж\u200dЖ א\u200dב ع\u200dع ก\u200dก بی\u200cنام क्\u200dष';
  await assertHtmlMatchesPng(t, 'cjk-joiners', corpusPost('emoji', { text }), new Map(), 'light', { width: 400 });
});

// Soft hyphens: a browser ends a line at one only where a hyphen fits, and draws it. In the second
// text the line would end at "Trenn", where no hyphen fits: it ends before the word.
for (const [label, text] of [
  [
    'long-words',
    'Die Donau\u00addampf\u00adschiff\u00adfahrts\u00adgesell\u00adschafts\u00adkapitäns\u00adwitwe und die Bundes\u00adausbildungs\u00adförderungs\u00adgesetz\u00adnovelle.',
  ],
  ['full-line', 'Ein Wort mit wei\u00adchem Trenn\u00adstrich mitten in der Zeile bleibt unsichtbar.'],
] as const) {
  test(`HTML in Chromium matches the PNG: lines ending at soft hyphens (${label})`, async (t) => {
    const post = corpusPost('emoji', { text });
    await assertHtmlMatchesPng(t, `soft-hyphens-${label}`, post, new Map(), 'light', { width: 300 });
  });
}

// 🍉 is the one Twemoji picture whose view box is not square: a browser keeps its proportions.
test('HTML in Chromium matches the PNG: an emoji that is wider than tall', async (t) => {
  const text = 'We ate 🍉 at the beach 🍉🍉🍉 and more 🍉';
  await assertHtmlMatchesPng(t, 'watermelon', corpusPost('emoji', { text }), new Map(), 'light');
});

// Scripts without spaces run into Latin letters and digits: the engine broke at each meeting,
// Chromium does not (one line more on these cards); beside ideographs both break.
for (const [label, text] of [
  ['thai-latin', 'เชียงใหม่Lanna'.repeat(8)],
  ['tai-tham-latin', 'ᨧ᩠ᨿᨦᩉ᩠ᨾᩲ᩵Lanna'.repeat(8)],
  ['lao-myanmar-khmer-latin', 'Lanna123ພາສາລາວ မြန်မာABC ភាសាខ្មែរx '.repeat(4)],
  // Ideographs, Hangul and full-width letters may be broken around, in both.
  ['thai-han', 'ภาษาไทย中文'.repeat(13)],
  ['thai-hangul', 'ภาษาไทย한국어'.repeat(10)],
  ['thai-fullwidth', 'ภาษาไทยＬａｎｎａ'.repeat(8)],
] as const) {
  test(`HTML in Chromium matches the PNG: a script without spaces beside Latin (${label})`, async (t) => {
    await assertHtmlMatchesPng(t, label, corpusPost('southeast-asian', { text }), new Map(), 'light');
  });
}

// An SA letter beside punctuation, digits, symbols or a no-break space: the engine broke there
// ("พ|.ศ.", "ឆ្នាំ|២០២៦", "ภาษาไทย|๏"), Chromium keeps them as it keeps letters together.
const BESIDE_SA = [...'.,:;!?()[]{}«»"\'‘’“”%‰°$€฿៛-‐–—/&*+=@#_~|·•…\u00a0、。「」（）中😀©™→♥№0๑១๏៙aбعक'];
for (const [label, [first, second]] of [
  ['thai', ['ภาษาไทย', 'ประเทศไทย']],
  ['khmer', ['ភាសាខ្មែរ', 'កម្ពុជា']],
  ['lao', ['ພາສາລາວ', 'ປະເທດລາວ']],
  ['myanmar', ['မြန်မာ', 'နိုင်ငံ']],
] as const) {
  test(`HTML in Chromium matches the PNG: ${label} words beside punctuation, digits and symbols`, async (t) => {
    const text = BESIDE_SA.map((x) => `${first}${x}${second}${x}${first}`).join(' ');
    const post = corpusPost('southeast-asian', { text });
    // Myanmar's stacked marks sit a fraction of a pixel apart in the two shapers, on every line.
    const max = label === 'myanmar' ? 0.02 : MAX_DIFFERENT_PIXELS;
    await assertHtmlMatchesPng(t, `sa-beside-${label}`, post, new Map(), 'light', { width: 300 }, max);
  });
}

// A link right after a Thai word: the word and the link are two text nodes, and the line ended
// between them where Chromium keeps them together.
test('HTML in Chromium matches the PNG: a link right after a Thai word', async (t) => {
  const text = 'ร้านอาหาร🍜อร่อยมาก😋ที่กรุงเทพฯ ดูเพิ่มเติมที่https://th.example.com/ร้านอาหารและ@thai_food #อาหารไทย';
  await assertHtmlMatchesPng(t, 'thai-link', corpusPost('southeast-asian', { text }), new Map(), 'light', {
    width: 300,
  });
});

// Letters whose marks their own subset lacks (Ι U+0308 U+0301, а U+0483): drawn as boxes, where
// Chromium drew them whole.
for (const [label, text] of [
  ['greek-decomposed', 'Ἐν ἀρχῇ ἦν ὁ λόγος, καὶ ὁ λόγος ἦν πρὸς τὸν θεόν. ΐ ΰ ᾯ ᾧ Ϊ́ Ϋ́'.normalize('NFD')],
  ['church-slavonic', 'Бл҃гослове́но и҆́мѧ а҃ в҃ г҃'],
] as const) {
  test(`HTML in Chromium matches the PNG: letters with marks their subset lacks (${label})`, async (t) => {
    await assertHtmlMatchesPng(t, label, corpusPost('emoji', { text }), new Map(), 'dark', { width: 350 });
  });
}

// A right-to-left paragraph wrapping inside a Latin run that holds a mention, hashtag or link (a
// span of its own): the engine drew the space before the span at the run's far end, gluing
// "SaudiNews50#spagov" and leaving two spaces beside the Arabic word.
for (const [label, text, width] of [
  ['mention', 'كأس @SaudiNews50 @spagov 2222 TASI', 330],
  ['hashtag', 'كأس SaudiNews50 #spagov 2222 TASI', 330],
  ['link', 'كأس SaudiNews50 https://x.co 2222 TASI', 330],
  ['cashtag', '#كأس_العالم_2034 @SaudiNews50 @spagov $2222 $TASI', 550],
] as const) {
  test(`HTML in Chromium matches the PNG: a right-to-left line ending inside a Latin run with a ${label}`, async (t) => {
    const post = corpusPost('arabic', { text, poll: undefined });
    await assertHtmlMatchesPng(t, `rtl-latin-run-${label}`, post, new Map(), 'light', { width });
  });
}

test('hostile post text shows literally, runs nothing and requests nothing', async () => {
  const post = loadPost(SAMPLES_DIR, '1900000000000000017');
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light' })).bytes.toString();
  assert.doesNotMatch(html, /<script|<img src=x|<b>/i);
  const shot = await screenshotHtml(html);
  assert.ok(shot.text.includes('<script>alert(1)</script><img src=x onerror=alert(2)>'), shot.text);
  assert.ok(shot.text.includes('Dana "<b>" Doe'));
  assert.deepEqual(shot.dialogs, []);
  assert.deepEqual(shot.requests, []);
});

/** Largest channel difference from the card's background in the padding columns of a PNG. */
function inkInPadding(png: Buffer, background: string): number {
  const { width, height, data } = PNG.sync.read(png);
  const bg = [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16));
  let worst = 0;
  // 2x: the border is device pixels 0-1, the padding 2-33; rows clear of the rounded corners.
  for (let y = 40; y < height - 40; y++) {
    for (const x of [...Array(28).keys()].flatMap((i) => [4 + i, width - 5 - i])) {
      const at = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(data[at + c] - bg[c]));
    }
  }
  return worst;
}

for (const [name, post] of Object.entries(edgePosts())) {
  for (const theme of ['light', 'dark'] as const) {
    test(`long words, links and names stay inside the card, as in Chromium: ${name} (${theme})`, async (t) => {
      await assertHtmlMatchesPng(t, name, post, new Map(), theme);
      const png = (await renderCard(post, new Map(), { format: 'png', theme, scale: 2 })).bytes;
      assert.ok(inkInPadding(png, THEMES[theme].background) <= 8, 'nothing is drawn in the padding');
    });
  }
}

// The narrowest card: counters, names, long words and links still fit.
for (const [name, post] of Object.entries(edgePosts())) {
  test(`long words, links, names and counters stay inside a 300 px card, as in Chromium: ${name}`, async (t) => {
    const options = { width: 300 };
    await assertHtmlMatchesPng(t, `${name}-300`, post, new Map(), 'light', options);
    const png = (await renderCard(post, new Map(), { ...options, format: 'png', theme: 'light', scale: 2 })).bytes;
    assert.ok(inkInPadding(png, THEMES.light.background) <= 8, 'nothing is drawn in the padding');
  });
}

// A name of two directions is cut where Chromium cuts it: at the line's end as drawn. What stays
// is what is drawn nearest the line's start: the end of an Arabic run in a left-to-right name, the
// end of a Latin run in a right-to-left one; a space inside the run stays in it.
for (const [label, key, name, width] of [
  ['ltr-arabic', 'emoji', 'John Smith | جون سميث المهندس المعماري الكبير', 300],
  ['rtl-latin', 'arabic', 'أحمد Ahmed Mohammed Alexander Longname Family', 400],
  ['rtl-emoji-latin', 'hebrew', 'דני 🇮🇱 Danny Cohen — Software Engineer @ Google', 300],
] as const) {
  test(`a name of two directions is cut at its end as drawn, as in Chromium: ${label}`, async (t) => {
    const post = corpusPost(key, { name, text: 'Hello', poll: undefined });
    await assertHtmlMatchesPng(t, `cut-name-${label}`, post, new Map(), 'light', { width });
  });
}

// A right-to-left name with digits is of two directions: cut inside an Arabic word, its last
// letter stays joined to the one cut off, as Chromium draws it ("محمدعب…", not "محمدع…"). One
// letter's form is a few pixels of a square: the bound is what these names differ by when right.
for (const [label, name] of [
  ['latin-digits', 'مكتبة 24 ساعة للكتب المستعملة والمخطوطات النادرة'],
  ['digits', 'عبدالرحمن 2026 محمد عبدالعزيز السعودي'],
  ['arabic-indic-digits', 'عبدالرحمن ٢٠٢٦ محمدعبدالعزيزالسعودي الكبير'],
] as const) {
  test(`a right-to-left name with digits cut inside a word keeps its letter joined, as in Chromium: ${label}`, async (t) => {
    const post = corpusPost('arabic', { name, text: 'مرحبا', poll: undefined });
    await assertHtmlMatchesPng(t, `cut-joined-${label}`, post, new Map(), 'light', { width: 300 }, undefined, 0.12);
  });
}

// The quote header cuts a long name to what the handle and the date leave it: the handle stays
// readable (whole up to its share of the line) and the date whole.
for (const name of ['quote-emoji-name', 'quote-rtl-name'] as const) {
  for (const width of [550, 300]) {
    test(`a quoted author's long name is cut and leaves the handle and date in view: ${name} at ${width} px`, async () => {
      const post = edgePosts()[name];
      const handle = `@${post.quoted!.author.handle}`;
      const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light', width })).bytes.toString();
      const page = await chromium().newPage();
      await page.setContent(html);
      const shown = await page.evaluate((text) => {
        const line = [...document.querySelectorAll<HTMLElement>('div')].find((e) => e.textContent === text)!;
        const name = line.previousElementSibling?.previousElementSibling as HTMLElement;
        const date = line.nextElementSibling as HTMLElement;
        const row = line.parentElement!.getBoundingClientRect();
        return {
          handle: line.getBoundingClientRect().width,
          inside: date.getBoundingClientRect().right <= row.right + 0.5,
          dateWhole: date.scrollWidth <= date.clientWidth,
          nameCut: name.scrollWidth > name.clientWidth,
        };
      }, handle);
      await page.close();
      assert.ok(shown.handle >= 24, `the handle is ${shown.handle} px wide`);
      assert.ok(shown.inside, 'the date ends inside the quote');
      assert.ok(shown.dateWhole, 'the date is not cut');
      assert.ok(shown.nameCut, 'the name is cut (drawn with an ellipsis)');
    });
  }
}

test('the HTML of a right-to-left post is natural markup: one element per paragraph, with its text and dir, entities as links', async () => {
  const post = corpusPost('arabic');
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'light' })).bytes.toString();
  const context = await chromium().newContext();
  const page = await context.newPage();
  await page.setContent(html);
  const paragraphs = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('div[dir]')]
      .filter((e) => e.style.whiteSpace === 'pre-wrap')
      .map((e) => ({
        dir: e.dir,
        text: e.textContent,
        links: [...e.querySelectorAll('a')].map((a) => [a.textContent, a.href, a.target, a.rel]),
      })),
  );
  await context.close();
  assert.deepEqual(
    paragraphs.map((p) => [p.dir, p.text]),
    post.text.split('\n').map((line) => ['rtl', line]),
  );
  assert.deepEqual(
    paragraphs.flatMap((p) => p.links),
    [
      ['bibalex.org/ar', 'https://www.bibalex.org/ar', '_blank', 'nofollow noopener noreferrer'],
      [
        '#مكتبة_الإسكندرية',
        'https://x.com/hashtag/%D9%85%D9%83%D8%AA%D8%A8%D8%A9_%D8%A7%D9%84%D8%A5%D8%B3%D9%83%D9%86%D8%AF%D8%B1%D9%8A%D8%A9',
        '_blank',
        'nofollow noopener noreferrer',
      ],
    ],
    'entities are inline links, to where they lead on X',
  );
});

test("the HTML links a reply's handle and a link card's title as the Markdown does, and nothing else", async () => {
  for (const [id, expected] of [
    ['1900000000000000014', ['@cityofexample https://x.com/cityofexample/status/1900000000000000016']],
    [
      '1900000000000000016',
      [
        'example.gov/roadworks/may https://example.gov/roadworks/may',
        'Road works in May https://example.gov/roadworks/may',
      ],
    ],
  ] as const) {
    const html = (
      await renderCard(loadPost(SAMPLES_DIR, id), new Map(), { format: 'html', theme: 'light' })
    ).bytes.toString();
    const context = await chromium().newContext();
    const page = await context.newPage();
    await page.setContent(html);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('a')].map((a) => `${a.textContent} ${a.href} ${a.target}`),
    );
    await context.close();
    assert.deepEqual(
      links,
      expected.map((l) => `${l} _blank`),
      id,
    );
  }
});

for (const [id, name] of [
  ['1900000000000000006', 'two-photos'],
  ['1900000000000000002', 'arabic'],
  ['1900000000000000001', 'entities-emoji'],
] as const) {
  test(`SVG output is vector and looks the same in Chromium, in resvg and as the PNG: ${name}`, async (t) => {
    const post = loadPost(SAMPLES_DIR, id);
    const assets = await loadAssets(post, media, 2);
    const svg = (await renderCard(post, assets, { format: 'svg', theme: 'light' })).bytes.toString();
    const png = (await renderCard(post, assets, { format: 'png', theme: 'light', scale: 2 })).bytes;
    assert.doesNotMatch(svg, /<text[\s>]/, 'text is drawn as glyph outlines');
    assert.doesNotMatch(svg, /href="(?!data:|#)/, 'images are embedded: no external reference');
    const shot = await screenshotHtml(
      `<!doctype html><style>*{margin:0}body{display:inline-flex}</style><div style="display:flex;width:550px">${svg}</div>`,
    );
    assert.deepEqual(shot.requests, []);
    const chromium = pixelDifference(png, shot.png).ratio;
    const resvg = differenceFromResvg(png, svg);
    const between = differenceFromResvg(shot.png, svg);
    t.diagnostic(
      `differ from the PNG: Chromium ${(chromium * 100).toFixed(2)}%, resvg ${(resvg * 100).toFixed(2)}%; from each other ${(between * 100).toFixed(2)}%`,
    );
    for (const ratio of [chromium, resvg, between])
      assert.ok(ratio <= 0.01, `${(ratio * 100).toFixed(2)}% of pixels differ`);
  });
}

test('hostile names, links, card and poll text in the HTML output run nothing and load nothing', async () => {
  const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
  const text = `look ${'"><img src=x onerror=alert(3)>'} now`;
  const display = '"><img src=x onerror=alert(3)>';
  const start = Array.from('look ').length;
  const post = {
    ...loadPost(SAMPLES_DIR, '1900000000000000010'),
    author: {
      name: evil,
      handle: 'x" onmouseover="alert(7)',
      verification: 'blue' as const,
      avatarShape: 'circle' as const,
      avatarUrl: 'javascript:alert(6)',
    },
    text,
    entities: [
      { type: 'url' as const, start, end: start + Array.from(display).length, url: 'javascript:alert(4)', display },
    ],
    card: {
      url: 'javascript:alert(8)',
      title: '<iframe src="javascript:alert(5)"></iframe>',
      domain: '<svg onload=alert(9)>',
      large: false,
    },
  };
  post.poll = {
    choices: [
      { label: '<svg/onload=alert(10)>', votes: 3 },
      { label: "'-alert(11)-'", votes: 1 },
    ],
  };
  const html = (await renderCard(post, new Map(), { format: 'html', theme: 'dark' })).bytes.toString();
  assert.doesNotMatch(html, /(href|src|action)\s*=\s*["']?\s*javascript:/i, 'no javascript: URL in any attribute');
  assert.doesNotMatch(html, /<(script|iframe|svg)[\s>/]/i, 'no active element from post text');
  assert.doesNotMatch(html, /<a[\s>/]/i, 'a javascript: link is its text alone, not a link');
  const shot = await screenshotHtml(html);
  assert.deepEqual(shot.dialogs, []);
  assert.deepEqual(shot.requests, []);
  for (const literal of [evil, display, '<iframe src="javascript:alert(5)"></iframe>', '<svg/onload=alert(10)>']) {
    assert.ok(shot.text.includes(literal), `shown literally: ${literal}`);
  }
});

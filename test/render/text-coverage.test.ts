import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { renderMarkdown } from '../../src/markdown/render.ts';
import { twemojiNames } from '../../src/render/emoji.ts';
import { insertWordBreaks, SA_JOINER } from '../../src/render/word-breaks.ts';
import { coverageOf } from '../../src/render/fonts.ts';
import { buildCardTree, renderCard } from '../../src/render/renderer.ts';
import { cleanText, directionOf } from '../../src/render/text.ts';
import type { Child, El } from '../../src/render/tree.ts';
import type { Post } from '../../src/sources/post.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { CORPUS, corpusPost } from './corpus.ts';
import { loadPost, worstSquare } from './support.ts';

// Code points no Noto font on the npm registry draws (most of CJK Extensions B to H): drawn as
// the missing-glyph box and logged. The posts here hold none.
const UNCOVERED = new Set<number>();
/** Controls, format characters and variation selectors: no glyph of their own. */
const DRAWS_NOTHING = /^(?:\p{Cc}|\p{Cf}|\p{Variation_Selector})$/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Every piece of text and every image the card draws, in order. */
function walk(node: Child, visit: (text: string | null, image: El | null) => void): void {
  if (typeof node === 'string') visit(node, null);
  else if (node.type === 'img') visit(null, node);
  else for (const c of node.props.children ?? []) walk(c, visit);
}

/** The emoji images a card draws, by key, in order. */
function emojiKeys(tree: Child): string[] {
  const keys: string[] = [];
  walk(tree, (_s, img) => img?.props.image?.key.startsWith('emoji:') && keys.push(img.props.image.key));
  return keys;
}

/** The card's paragraphs: the blocks that hold the post text, each with its own `dir`. */
function paragraphsOf(post: Post): El[] {
  const { tree } = buildCardTree(post, 'light', new Map());
  const found: El[] = [];
  const collect = (node: Child): void => {
    if (typeof node === 'string' || node.type === 'img') return;
    if (node.props.dir && node.props.style?.whiteSpace === 'pre-wrap') found.push(node);
    else for (const c of node.props.children ?? []) collect(c);
  };
  collect(tree);
  return found.slice(0, post.text.split('\n').length);
}

/** The post text as the card holds it: strings and the emoji its images stand for, paragraph per line. */
function paragraphText(post: Post): string {
  return paragraphsOf(post)
    .map((paragraph) => {
      let text = '';
      walk(paragraph, (s, img) => (text += s ?? img?.props.alt ?? ''));
      return text;
    })
    .join('\n');
}

/**
 * The graphemes of a card that no face it loads draws whole. The engine draws a cluster from one
 * face (a browser may take a mark from another face): a letter whose marks only another face has
 * shows them as boxes.
 */
function splitGraphemes(post: Post): string[] {
  const { tree, fonts } = buildCardTree(post, 'light', new Map());
  const split = new Set<string>();
  walk(tree, (text) => {
    for (const { segment } of graphemes.segment(text ?? '')) {
      const cps = [...segment].filter((c) => !DRAWS_NOTHING.test(c)).map((c) => c.codePointAt(0)!);
      if (cps.length < 2 || cps.some((cp) => UNCOVERED.has(cp))) continue;
      if (!fonts.faces.some((f) => cps.every((cp) => coverageOf(f).has(cp)))) split.add(segment);
    }
  });
  return [...split];
}

const samples = [
  '1900000000000000001',
  '1900000000000000002',
  '1900000000000000003',
  '1900000000000000005',
  '1900000000000000014',
];
const posts: Array<[string, Post]> = [
  ...Object.keys(CORPUS).map((k): [string, Post] => [k, corpusPost(k)]),
  ...samples.map((id): [string, Post] => [id, loadPost(SAMPLES_DIR, id)]),
];

for (const [name, post] of posts) {
  test(`every character of ${name} is in the card and has a glyph in the faces it loads`, () => {
    assert.equal(paragraphText(post), cleanText(post.text), 'the paragraphs hold the whole text');
    const { tree, fonts } = buildCardTree(post, 'light', new Map());
    const uncovered = new Set<string>();
    walk(tree, (text) => {
      for (const ch of text ?? '') {
        const cp = ch.codePointAt(0)!;
        if (DRAWS_NOTHING.test(ch)) continue;
        assert.doesNotMatch(ch, /\p{Emoji_Presentation}/u, `${ch} is an emoji drawn from a text font`);
        if (!fonts.faces.some((f) => coverageOf(f).has(cp)) && !UNCOVERED.has(cp))
          uncovered.add(`U+${cp.toString(16).toUpperCase()} ${ch}`);
      }
    });
    assert.deepEqual([...uncovered], []);
  });

  test(`each letter of ${name} with marks has one face that draws it whole`, () => {
    assert.deepEqual(splitGraphemes(post), []);
  });

  test(`every face ${name} loads draws some of its text`, () => {
    const { tree, fonts } = buildCardTree(post, 'light', new Map());
    const drawn = new Set<number>();
    walk(tree, (text) => {
      for (const ch of text ?? '') drawn.add(ch.codePointAt(0)!);
    });
    // Latin is always loaded (handles, dates and counters are drawn in it): any other face must
    // draw something Latin does not.
    const latin = fonts.faces.find((f) => f.name === 'noto-sans~latin~400')!;
    const idle = fonts.faces.filter(
      (f) =>
        f.weight === 400 &&
        f !== latin &&
        ![...drawn].some((cp) => coverageOf(f).has(cp) && !coverageOf(latin).has(cp)),
    );
    assert.deepEqual(
      idle.map((f) => f.name),
      [],
      'a face loaded for no glyph is registered and inlined into HTML for nothing',
    );
  });
}

// The subset with the letter lacks the marks, the subset with the marks lacks the letter: Noto
// Sans whole has both, and the letters were drawn as boxes before it was loaded for them.
test('a letter whose marks its own subset lacks is drawn whole: decomposed Greek capitals, Church Slavonic titlo', () => {
  for (const text of ['Ϊ́ Ϋ́ ᾯ'.normalize('NFD'), 'бл҃гослове́но а҃ в҃ г҃ и҆мѧ']) {
    assert.deepEqual(splitGraphemes(corpusPost('emoji', { text })), [], text);
  }
});

// The engine tries a family's faces in the order they were registered: registered as cards first
// needed them, a decomposed Vietnamese Ấ took its marks from one Noto Sans subset or another.
test('a card is drawn the same whatever its process drew before it', () => {
  const script = new URL('./workers/draw-after.ts', import.meta.url).pathname;
  const target = 'ẤẦẨẪẬ ỀỂỄỆ'.normalize('NFD');
  const hashes = [[], ['Hello'], ['Αθήνα', 'Tiếng Việt']].map((before) =>
    execFileSync(process.execPath, ['--import', 'tsx', script, ...before, target], { encoding: 'utf8' }),
  );
  assert.equal(new Set(hashes).size, 1, hashes.join(' '));
});

test('a card loads no face for joiners or for spaces Latin has: French, emoji sequences, Persian', () => {
  const faces = (text: string) =>
    buildCardTree(corpusPost('emoji', { text }), 'light', new Map()).fonts.faces.map((f) => f.name);
  const latin = ['noto-sans~latin~400', 'noto-sans~latin~700'];
  assert.deepEqual(faces('Prix\u00a0: 10\u00a0000\u00a0€ 👩🏽\u200d💻 🧑\u200d🧑\u200d🧒'), latin);
  // ZWNJ shapes Persian: the Arabic face that draws the letters has it.
  const persian = faces('می\u200cخواهم');
  assert.ok(persian.includes('noto-sans-arabic~arabic~400'), persian.join(' '));
  assert.ok(
    persian.every((f) => f.startsWith('noto-sans-arabic~') || latin.includes(f)),
    persian.join(' '),
  );
});

test('punctuation and marks come from the font a browser would pick, not from a rarer script', () => {
  const families = (text: string, key = 'chinese-traditional') => [
    ...new Set(buildCardTree(corpusPost(key, { text }), 'light', new Map()).fonts.faces.map((f) => f.family)),
  ];
  assert.deepEqual(families('「故宮」《書》〈畫〉、。'), ['noto-sans', 'noto-sans-tc']);
  // Noto Sans Tai Le has narrow 。《》 of its own: a Chinese post keeps the CJK font's.
  const taiLe = buildCardTree(
    corpusPost('chinese-traditional', { text: '傣文：ᥖᥭᥰ ᥘᥫᥴ。《傣族》' }),
    'light',
    new Map(),
  );
  for (const c of ['。', '《'])
    assert.ok(
      taiLe.fonts.faces.some((f) => f.family === 'noto-sans-tc' && coverageOf(f).has(c.codePointAt(0)!)),
      `${c} has a CJK face loaded`,
    );
  // Coptic's package declares U+0305 too; on a Latin letter whole Noto Sans draws it.
  assert.deepEqual(families('x\u0305 y\u0306', 'emoji'), ['noto-sans', 'noto-sans-whole']);
  // A Mongolian suffix's U+202F is the Mongolian font's, which has it: no math font for it.
  assert.deepEqual(families('ᠮᠣᠩᠭᠣᠯ ᠤᠯᠤᠰ\u202fᠤᠨ', 'emoji'), ['noto-sans', 'noto-sans-mongolian']);
});

test('each paragraph takes the direction of its first strong character, in every plane', () => {
  const directions = (key: string) => paragraphsOf(corpusPost(key)).map((p) => p.props.dir);
  // Thaana, Syriac, N'Ko and Adlam (U+1E900, outside the Basic Multilingual Plane).
  assert.deepEqual(directions('dhivehi'), ['rtl', 'rtl', 'rtl', 'rtl']);
  assert.deepEqual(directions('odia'), ['ltr', 'ltr', 'ltr', 'ltr', 'ltr']);
  assert.equal(directionOf('123 𞤀𞤣𞤤𞤢𞤥'), 'rtl', 'digits are not strong');
  assert.equal(directionOf('\u2066abc\u2069 שלום'), 'rtl', 'an isolate is skipped');
  assert.equal(directionOf('12 🙂', 'rtl'), 'rtl', 'no strong character: the fallback');
  assert.equal(directionOf('\u200f123 abc'), 'rtl', 'RLM is strong right-to-left');
});

test('text-presentation characters stay text; U+FEFF is dropped; a lone skin tone is a picture', () => {
  const post = corpusPost('emoji', { text: 'a © b ™ c ↔ d ☺︎ e\ufefff 🏻 ⭐' });
  const { tree } = buildCardTree(post, 'light', new Map());
  const texts: string[] = [];
  const images: string[] = [];
  walk(tree, (s, img) => (s ? texts.push(s) : images.push(img!.props.image!.key)));
  const body = texts.join('');
  for (const ch of ['©', '™', '↔', '☺\ufe0e']) assert.ok(body.includes(ch), `${ch} is text`);
  assert.ok(body.includes('ef') && !body.includes('\ufeff'));
  assert.ok(images.includes('emoji:1f3fb') && images.includes('emoji:2b50'), images.join(' '));
});

test('an emoji whose first character no text font has (ℹ️) reports no missing glyph', () => {
  const { tree, fonts } = buildCardTree(corpusPost('emoji', { text: 'Info ℹ️ here' }), 'light', new Map());
  assert.deepEqual(fonts.missing, []);
  const images: string[] = [];
  walk(tree, (_s, img) => img && images.push(img.props.image!.key));
  assert.ok(images.includes('emoji:2139'), images.join(' '));
});

/** A Twemoji file name as the sequence a person types (U+FE0F where the emoji needs it). */
function sequenceOf(name: string): string {
  const cps = name.split('-').map((h) => parseInt(h, 16));
  const text = String.fromCodePoint(...cps);
  return cps.length === 1 && !/\p{Emoji_Presentation}/u.test(text) ? `${text}\ufe0f` : text;
}

test('every sequence Twemoji ships is drawn as its own image, in runs without spaces and in names', async () => {
  // Not RGI: lone regional indicator letters (side by side, they pair up into flags) and
  // Twemoji's private-use picture.
  const names = [...twemojiNames()].filter((n) => !/^(1f1(e[6-9a-f]|f[0-9a-f])|e[0-9a-f]{3})$/.test(n)).sort();
  assert.ok(names.length > 3800, `${names.length} Twemoji images`);
  assert.ok(
    ['1f426-200d-1f525', '1f34b-200d-1f7e9', '1fae9'].every((n) => names.includes(n)),
    'Emoji 15.1 and 16',
  );
  for (let i = 0; i < names.length; i += 300) {
    const chunk = names.slice(i, i + 300);
    const text = chunk.map(sequenceOf).join('');
    const post = corpusPost('emoji', { text, name: `Name ${chunk.slice(0, 8).map(sequenceOf).join('')}` });
    const { tree } = buildCardTree(post, 'light', new Map());
    const images: string[] = [];
    walk(tree, (_s, img) => img?.props.image?.key.startsWith('emoji:') && images.push(img.props.image.key));
    const expected = [...chunk.slice(0, 8), ...chunk].map((n) => `emoji:${n}`);
    assert.deepEqual(images, expected, `sequences ${i}-${i + chunk.length}`);
    if (i % 1200 === 0) {
      const png = PNG.sync.read((await renderCard(post, new Map(), { format: 'png', theme: 'dark', scale: 1 })).bytes);
      assert.equal(png.width, 550);
    }
  }
});

test('a ZWJ sequence finds its picture however it is qualified: fully, minimally or not at all', () => {
  const zwj = [...twemojiNames()].filter((n) => n.includes('200d')).sort();
  assert.ok(zwj.length > 1000, `${zwj.length} ZWJ sequences`);
  const fromHex = (hex: string[]) => String.fromCodePoint(...hex.map((h) => parseInt(h, 16)));
  // Unqualified: no U+FE0F at all (🏳‍🌈). Fully: one after every component without emoji
  // presentation (🏳️‍🌈, 🕵️‍♂️), which is also what a keyboard may send for those Twemoji names without.
  const bare = (n: string) => fromHex(n.split('-').filter((h) => h !== 'fe0f'));
  const full = (n: string) =>
    n
      .split('-200d-')
      .map((part) => {
        const text = fromHex(part.split('-').filter((h) => h !== 'fe0f'));
        return /^\p{Emoji_Presentation}/u.test(text) || /\p{Emoji_Modifier}/u.test(text) ? text : `${text}\ufe0f`;
      })
      .join('\u200d');
  for (const qualify of [bare, full]) {
    const text = zwj.map(qualify).join(' ');
    const { tree } = buildCardTree(corpusPost('emoji', { text, name: 'Plain' }), 'light', new Map());
    const images: string[] = [];
    walk(tree, (_s, img) => img?.props.image?.key.startsWith('emoji:') && images.push(img.props.image.key));
    assert.deepEqual(
      images,
      zwj.map((n) => `emoji:${n}`),
      qualify.name,
    );
  }
});

test('scripts without spaces get break opportunities only at word boundaries', () => {
  const thai = 'พจนานุกรมฉบับราชบัณฑิตยสถาน';
  const broken = insertWordBreaks(thai);
  assert.equal(broken.replace(/\u200b/g, ''), thai);
  assert.ok(broken.includes('\u200b'), 'breaks are inserted');
  for (const word of broken.split('\u200b')) assert.ok(thai.includes(word));
  assert.ok(broken.split('\u200b').includes('พจนานุกรม'), 'พจนานุกรม is one word');
  assert.equal(insertWordBreaks('no change for spaced scripts'), 'no change for spaced scripts');
  // Khmer's and Myanmar's stops keep to the word before them: a joiner, not a break, goes between
  // (the engine broke before ។ at a line's end, where Chromium does not); Thai's ๆ is in its word.
  for (const text of ['ខ្ញុំស្រឡាញ់ប្រទេសកម្ពុជា។', 'မင်္ဂလာပါ။', 'เด็กๆเล่นกัน']) {
    const engine = insertWordBreaks(text);
    assert.doesNotMatch(engine, /\u200b[។။ๆ]/u, text);
    assert.match(engine, new RegExp(`(${SA_JOINER}[។။]|ๆ)`, 'u'), text);
  }
});

test('a character no font draws is logged with its code point, once', async () => {
  const warnings: string[] = [];
  const listen = (w: Error) => warnings.push(w.message);
  process.on('warning', listen);
  try {
    // U+F8FF, Apple's logo in the private use area, pasted into names and posts from Apple devices.
    const post = corpusPost('emoji', { name: 'Tim \u{f8ff}', text: 'Shot on \u{f8ff} iPhone, again \u{f8ff}' });
    await renderCard(post, new Map(), { format: 'svg', theme: 'light' });
    await renderCard(post, new Map(), { format: 'svg', theme: 'dark' });
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', listen);
  }
  assert.deepEqual(
    warnings.filter((w) => w.includes('U+F8FF')),
    ['no glyph for U+F8FF (post 1800000000000000001)'],
  );
});

// A source's JSON may hold a lone surrogate (\ud83d cut from its pair): the PNG and the HTML
// draw it as U+FFFD, which fonts have, so no missing glyph is reported for it.
test('a lone surrogate is drawn as U+FFFD and reported as no missing glyph', () => {
  const post = corpusPost('emoji', { name: 'Lone \udfff name', text: 'start \ud800 mid \udc00\ud83d end \ud83d' });
  const { tree, fonts } = buildCardTree(post, 'light', new Map());
  assert.deepEqual(fonts.missing, []);
  let drawn = '';
  walk(tree, (s) => (drawn += s ?? ''));
  assert.doesNotMatch(drawn, /[\ud800-\udfff]/, 'no lone surrogate reaches the engine');
  assert.ok(drawn.includes('start \ufffd mid \ufffd\ufffd end \ufffd'), drawn);
  assert.ok(drawn.includes('Lone \ufffd name'), drawn);
});

test('a post of thousands of characters no font draws makes one short warning', async () => {
  const warnings: string[] = [];
  const listen = (w: Error) => warnings.push(w.message);
  process.on('warning', listen);
  try {
    const text = Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(0xf0000 + i)).join('');
    await renderCard(corpusPost('emoji', { text }), new Map(), { format: 'svg', theme: 'light' });
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', listen);
  }
  const mine = warnings.filter((w) => w.includes('U+F0000'));
  assert.equal(mine.length, 1);
  assert.match(mine[0], /^no glyph for U\+F0000 U\+F0001 .* U\+F0013 and 4980 more \(post \d+\)$/);
});

test('controls X does not show are left out of names, text and labels: drawn and written as without them', async () => {
  const controls = '\u0000\u0001\u0007\u000b\u000c\u001b\u007f\u0080\u009b\ufff9\ufffb';
  const spread = (s: string) => [...s].map((c, i) => c + (i % 3 === 0 ? controls[i % controls.length] : '')).join('');
  const fields = {
    name: 'Dana Doe',
    text: 'A post with\nsome lines, a #tag and @mention',
    poll: [
      ['First choice', 3],
      ['Second', 1],
    ] as Array<[string, number]>,
  };
  const clean = corpusPost('emoji', fields);
  const dirty = corpusPost('emoji', {
    name: spread(fields.name),
    text: spread(fields.text).replace('\n', '\r\n'),
    poll: fields.poll.map(([label, votes]) => [spread(label), votes]),
  });
  assert.deepEqual(dirty, clean, 'the normalized post is the same');
  const png = async (p: Post) => (await renderCard(p, new Map(), { format: 'png', theme: 'light', scale: 1 })).bytes;
  assert.ok((await png(dirty)).equals(await png(clean)));
  const shownControls = String.raw`[\p{Cc}--[\t\n]]`;
  assert.doesNotMatch(renderMarkdown(dirty), new RegExp(shownControls, 'v'));
});

test('NEL and the line and paragraph separators break the line as LF does; in a name they are a space', async () => {
  const clean = corpusPost('emoji', { name: 'Dana Doe', text: 'one\ntwo\nthree\nfour' });
  const other = corpusPost('emoji', { name: 'Dana\u2028Doe', text: 'one\u2028two\u2029three\u0085four' });
  assert.deepEqual(other, clean);
  const png = async (p: Post) => (await renderCard(p, new Map(), { format: 'png', theme: 'light', scale: 1 })).bytes;
  assert.ok((await png(other)).equals(await png(clean)));
});

test('a ZWJ sequence Twemoji does not draw is drawn as its parts, with no box', () => {
  const text = `Ninja 🐱\u200d👤 pair 😀\u200d😀 chain ${'👩\u200d'.repeat(100)}👩 end`;
  const { tree, fonts } = buildCardTree(corpusPost('emoji', { text, name: 'Plain' }), 'light', new Map());
  assert.deepEqual(emojiKeys(tree), [
    'emoji:1f431',
    'emoji:1f464',
    'emoji:1f600',
    'emoji:1f600',
    ...Array(101).fill('emoji:1f469'),
  ]);
  assert.deepEqual(fonts.missing, []);
});

test('two regional indicators that name no flag are drawn as their two letters, with no box', () => {
  const text = 'Flags 🇽🇽 and 🇦🇦 beside 🇺🇦, a lone 🇦';
  const { tree, fonts } = buildCardTree(corpusPost('emoji', { text, name: 'Plain' }), 'light', new Map());
  assert.deepEqual(emojiKeys(tree), [
    'emoji:1f1fd',
    'emoji:1f1fd',
    'emoji:1f1e6',
    'emoji:1f1e6',
    'emoji:1f1fa-1f1e6',
    'emoji:1f1e6',
  ]);
  assert.deepEqual(fonts.missing, []);
});

// U+FE0E asks for a text glyph; after a pictograph no text font draws, that glyph was a box.
test('U+FE0E after an emoji no text font draws leaves its picture; after ☺ and ⌚ it asks for text', () => {
  const text = 'Party 🎉\ufe0e cake 🎂\ufe0e smile ☺\ufe0e watch ⌚\ufe0e';
  const { tree } = buildCardTree(corpusPost('emoji', { text, name: 'Plain' }), 'light', new Map());
  assert.deepEqual(emojiKeys(tree), ['emoji:1f389', 'emoji:1f382']);
  let drawn = '';
  walk(tree, (s) => s !== null && (drawn += s));
  assert.ok(drawn.includes('☺\ufe0e') && drawn.includes('⌚\ufe0e'), JSON.stringify(drawn));
});

test('an emoji followed by a ZWNJ or a mark is still its picture; the rest stays text', () => {
  const text = 'ب\u200c😀\u200cب a\u200c👍🏽\u200cb ⭐\u0301 1️⃣';
  const { tree } = buildCardTree(corpusPost('emoji', { text, name: 'Plain' }), 'light', new Map());
  const images: string[] = [];
  let drawn = '';
  walk(tree, (s, img) => {
    if (img?.props.image?.key.startsWith('emoji:')) images.push(img.props.image.key);
    if (s !== null) drawn += s;
  });
  assert.deepEqual(images, ['emoji:1f600', 'emoji:1f44d-1f3fd', 'emoji:2b50', 'emoji:31-20e3']);
  assert.ok(drawn.includes('ب\u200c\u200cب') && drawn.includes('\u0301'), JSON.stringify(drawn));
});

// The engine's own ellipsis in a line holding right-to-left text was cut to a dot or lost. A
// browser cuts the line at its end as drawn: what stays of the right-to-left part is its end,
// drawn nearest the left-to-right words (see html-fidelity.test.ts for the same in Chromium).
test("a left-to-right name cut inside its right-to-left part keeps that part's end and an ellipsis", async () => {
  for (const [ltr, rtl, width] of [
    ['John Smith ', 'محمد عبدالله العتيبي الرسمي', 300],
    // Under 50 characters: a source cuts a longer name itself.
    ['Tel Aviv University ', 'אוניברסיטת תל אביב הרשמית', 350],
  ] as const) {
    // The name's row left of the logo, drawn in a card of `cardWidth`: a wide one draws a candidate uncut.
    const row = async (n: string, cardWidth: number) => {
      const png = PNG.sync.read(
        (
          await renderCard(corpusPost('emoji', { name: n, text: 'x' }), new Map(), {
            format: 'png',
            theme: 'light',
            width: cardWidth,
            scale: 1,
          })
        ).bytes,
      );
      const rows = [];
      for (let y = 20; y < 60; y++) rows.push(png.data.subarray(y * png.width * 4, (y * png.width + width - 60) * 4));
      return Buffer.concat(rows);
    };
    const drawn = await row(ltr + rtl, width);
    // An RLM keeps a space the part's end starts with inside it, as it was before the cut; a ZWJ
    // keeps its first letter joined to one cut off (arabic-run-cuts.test.ts checks which, against Chromium).
    const ends = [...rtl].flatMap((_, i) =>
      ['', '\u200d'].map((joiner) => `${ltr}\u200f${joiner}${[...rtl].slice(i).join('')}…`),
    );
    let same = false;
    for (const end of ends) if ((await row(end, 1000)).equals(drawn)) same = true;
    assert.ok(
      same,
      `${ltr}${rtl} at ${width} px is drawn as its left-to-right words, an end of the rest and an ellipsis`,
    );
  }
});

test('a Latin mark after a kana, an ideograph or a Hangul syllable leaves the character drawn', async () => {
  // A grapheme is drawn from one font file, and no CJK subset file has the Latin marks: the
  // character itself came out as the missing-glyph box, in the PNG and in the browser alike.
  const draw = async (text: string) =>
    (await renderCard(corpusPost('emoji', { text }), new Map(), { format: 'png', theme: 'light', scale: 2 })).bytes;
  for (const [base, mark] of [
    ['か', '\u0308'],
    ['漢', '\u0302'],
    ['한', '\u0304'],
    ['Ａ', '\u0303'],
  ]) {
    const square = worstSquare(await draw(`${base}${mark} and more`), await draw(`${base} and more`));
    assert.ok(
      square < 0.15,
      `${base}+U+${mark.codePointAt(0)!.toString(16)}: ${(square * 100).toFixed(1)}% of a square differs`,
    );
  }
  assert.equal(cleanText('か\u0308'), 'か\u2060\u0308', 'the mark is drawn on its own');
  assert.equal(cleanText('〰\ufe0f 漢\ufe00'), '〰\ufe0f 漢\ufe00', 'a variation selector stays with its character');
  assert.equal(cleanText('e\u0301 か\u3099'), 'é が', 'a mark composed with its letter stays on it');
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { renderMarkdown } from '../../src/markdown/render.ts';
import { POST_LIMITS, xWeightedEnd } from '../../src/sources/limits.ts';
import type { Entity, Post } from '../../src/sources/post.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { REPO_DIR } from '../fixtures.ts';

const author = { name: 'N'.repeat(200), screen_name: 'dana' };

/** An FxTwitter body of one post with `tweet`'s fields over a short one, normalized; it must be found. */
function fxPost(tweet: Record<string, unknown>): Post {
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: { id: '20', text: 'hi', author, created_timestamp: 1700000000, ...tweet },
  });
  if (r.kind !== 'found') assert.fail(`not found: ${r.kind}`);
  return r.post;
}

/** A syndication body with `fields` over a short post by jack, normalized; it must be found. */
function synPost(fields: Record<string, unknown>): Post {
  const r = normalizeSyndication({
    __typename: 'Tweet',
    id_str: '20',
    text: 'hi',
    created_at: '2006-03-21T20:50:14.000Z',
    user: { name: 'jack', screen_name: 'jack' },
    ...fields,
  });
  if (r.kind !== 'found') assert.fail(`not found: ${r.kind}`);
  return r.post;
}

test("a normalized FxTwitter post is held to X's limits", () => {
  const text = `${'😀'.repeat(30_000)} @jack`;
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: {
      id: '20',
      text,
      raw_text: { text, facets: [{ type: 'mention', indices: [30_001, 30_006], original: '@jack' }] },
      author,
      created_timestamp: 1700000000,
      media: {
        all: Array.from({ length: 10 }, (_, i) => ({
          type: 'photo',
          url: `https://pbs.twimg.com/media/${i}.jpg`,
          altText: 'a'.repeat(5000),
        })),
      },
      poll: { choices: Array.from({ length: 5000 }, (_, i) => ({ label: `choice number ${i} `.repeat(5), count: i })) },
      quote: { id: '21', text: 'q', author, created_timestamp: 1700000000 },
    },
  });
  assert.equal(r.kind, 'found');
  if (r.kind !== 'found') return;
  const p = r.post;
  assert.equal(p.text, '😀'.repeat(12_500), 'X weighs an emoji 2; cut between emoji, never inside a pair');
  assert.equal(p.truncated, true);
  assert.deepEqual(p.entities, [], 'the mention past the cut is dropped');
  assert.equal(p.media.length, 4);
  assert.ok(p.media.every((m) => m.alt === `${'a'.repeat(POST_LIMITS.altChars - 1)}…`));
  assert.equal(p.poll?.choices.length, 4);
  assert.equal(p.poll?.choices[1].label, 'choice number 1 choice n…', 'a cut ends in an ellipsis');
  assert.equal(p.poll?.totalVotes, undefined, 'shares are of the four choices shown, not of all 5,000');
  assert.match(renderMarkdown(p), /choice number 3 .*50(\.0)?%/);
  assert.equal(p.author.name, `${'N'.repeat(49)}…`);
  assert.equal(p.quoted?.author.name, `${'N'.repeat(49)}…`, 'the quote is held to the same limits');
});

test('a post within the limits is unchanged; a syndication post is held to them too', () => {
  const short = synPost({ text: 'just setting up my twttr' });
  assert.equal(short.text, 'just setting up my twttr');
  assert.equal(short.truncated, false);
  const long = synPost({ id_str: '22', text: 'x'.repeat(30_000), user: { name: 'Q'.repeat(80), screen_name: 'jack' } });
  assert.equal(long.text.length, 25_000);
  assert.equal(long.author.name, `${'Q'.repeat(49)}…`);
  assert.equal(long.truncated, true);
});

test("text is weighed as X weighs it: emoji sequences and most scripts' characters 2, links 23", () => {
  // [text, X's weight]: each weighs exactly this, one less cuts it.
  const cases: Array<[string, number]> = [
    ['hello', 5],
    ['مرحبا', 5],
    ['Ⴀა', 2],
    ['—’', 2],
    ['漢字', 4],
    ['한국어', 6],
    ['…', 2],
    ['ሰላም', 6],
    ['😀', 2],
    ['👩🏽‍💻', 2],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', 2],
    ['🇯🇵', 2],
    ['#️⃣', 2],
    ['©', 1],
    ['e\u0301', 1],
  ];
  for (const [text, weight] of cases) {
    const points = Array.from(text).length;
    assert.equal(xWeightedEnd(text, weight), points, `${JSON.stringify(text)} fits ${weight}`);
    assert.ok(xWeightedEnd(text, weight - 1) < points, `${JSON.stringify(text)} does not fit ${weight - 1}`);
  }
  const link = `see ${'https://example.com/'.padEnd(200, 'x')} now`;
  const entities: Entity[] = [
    { type: 'url', start: 4, end: 204, url: link.slice(4, 204), display: 'example.com/xxxxxxxxxxxxxx…' },
    { type: 'mention', start: 205, end: 208, handle: 'now' },
  ];
  assert.equal(xWeightedEnd(link, 4 + 23 + 4, entities), 208, 'a link weighs its t.co address, 23');
  assert.equal(xWeightedEnd(link, 30, entities), 207);
});

test("a note is held to X's weighted 25,000, not cut short of it", () => {
  const latin = synPost({ text: 'a'.repeat(25_000) });
  assert.equal(latin.text.length, 25_000);
  assert.equal(latin.truncated, false);
  const han = synPost({ text: '漢'.repeat(12_500) });
  assert.equal(han.text, '漢'.repeat(12_500), "X's limit for Chinese: 12,500 characters, kept whole");
  assert.equal(han.truncated, false);
  const over = synPost({ text: `${'漢'.repeat(12_500)}字` });
  assert.equal(over.text, '漢'.repeat(12_500));
  assert.equal(over.truncated, true);
  const mixed = fxPost({ text: `${'😀 '.repeat(8_000)}${'x'.repeat(1_000)}` });
  assert.equal(mixed.text, `${'😀 '.repeat(8_000)}${'x'.repeat(1_000)}`, '24,000 + 1,000');
  assert.equal(mixed.truncated, false);
});

test('raw text is read only as far as it could be shown: an encoded note keeps all it shows', () => {
  // X's own APIs send & as &amp;: 25,000 of them are 125,000 characters of raw text.
  const amp = synPost({ text: '&amp;'.repeat(25_000) });
  assert.equal(amp.text, '&'.repeat(25_000));
  assert.equal(amp.truncated, false);
  const links = fxPost({
    text: 'x',
    raw_text: {
      text: 'https://t.co/abcdefghij '.repeat(1_000),
      facets: Array.from({ length: 1_000 }, (_, i) => ({
        type: 'url',
        indices: [i * 24, i * 24 + 23],
        original: 'https://t.co/abcdefghij',
        replacement: 'https://a.co',
        display: 'a.co',
      })),
    },
  });
  assert.equal(links.text, Array(1_000).fill('a.co').join(' '), 'every link shown');
  // Megabytes of mentions past that are not built into text: what is shown is X's limit of them.
  const hostile = synPost({ text: '@dana_doe '.repeat(200_000) });
  assert.equal(hostile.truncated, true);
  assert.ok(Array.from(hostile.text).length <= POST_LIMITS.textChars);
  assert.equal(hostile.entities.length, POST_LIMITS.entities);
});

test('long runs of blanks, mentions and long hashtags in upstream text are handled in linear time', () => {
  // 1,000,000 blanks then a letter: a quadratic trim runs for hours and cannot be interrupted
  // from inside the process, so the work runs in a child that is killed after 20 s.
  const script = `
    import { normalizeFxTwitter } from './src/sources/fxtwitter/normalize.ts';
    import { normalizeSyndication } from './src/sources/syndication/normalize.ts';
    import { renderMarkdown } from './src/markdown/render.ts';
    for (const blanks of [' '.repeat(1e6), '\\n'.repeat(1e6), ' \\t'.repeat(5e5)]) {
      const r = normalizeFxTwitter(200, { code: 200, tweet: { id: '20', text: 'a' + blanks + 'b', author: { name: 'D', screen_name: 'dana' }, created_timestamp: 1700000000 } });
      if (r.kind !== 'found' || !renderMarkdown(r.post).includes('**@dana**')) process.exit(3);
    }
    // A million characters of mentions, in both sources' bodies without entities.
    const mentions = '@a '.repeat(333333);
    const fx = normalizeFxTwitter(200, { code: 200, tweet: { id: '20', text: mentions, author: { name: 'D', screen_name: 'dana' }, created_timestamp: 1700000000 } });
    const syn = normalizeSyndication({ __typename: 'Tweet', id_str: '20', text: mentions, created_at: '2026-04-02T10:00:00.000Z', user: { name: 'D', screen_name: 'dana' } });
    if (fx.kind !== 'found' || syn.kind !== 'found') process.exit(5);
    // A hashtag a million letters long that the character after it refuses.
    for (const end of ['#', '＃', '://', '']) {
      const r = normalizeFxTwitter(200, { code: 200, tweet: { id: '20', text: '#' + 'a'.repeat(1e6) + end, author: { name: 'D', screen_name: 'dana' }, created_timestamp: 1700000000 } });
      if (r.kind !== 'found') process.exit(4);
    }`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_DIR,
    timeout: 20_000,
    encoding: 'utf8',
  });
  assert.equal(run.signal, null, 'finished before the 20 s kill');
  assert.equal(run.status, 0, run.stderr);
});

test('names are cut between characters as a reader counts them, never inside an emoji sequence', () => {
  const family = '👩🏽‍❤️‍💋‍👨🏻';
  const named = synPost({ id_str: '23', user: { name: `A${family.repeat(60)}`, screen_name: 'jack' } });
  assert.equal(named.author.name, `A${family.repeat(48)}…`);
  // Stacked marks on one letter are one character, but cannot make a name long.
  const zalgo = synPost({ id_str: '24', user: { name: `Z${'\u0301'.repeat(5_000)}oe`, screen_name: 'jack' } });
  assert.ok(zalgo.author.name.length <= 800, `${zalgo.author.name.length}`);
});

test('a reply to a handle X could not have is left out; a real handle of up to 20 characters is kept', () => {
  const reply = (replying_to: string) => fxPost({ replying_to, replying_to_status: '19' }).replyTo?.handle;
  assert.equal(reply('a_handle_of_max_len_'), 'a_handle_of_max_len_', 'kept whole, not cut to 15');
  for (const bad of ['שלום', 'dana\u0007', 'a b', '', 'x'.repeat(21)]) assert.equal(reply(bad), undefined, bad);
  assert.equal(synPost({ in_reply_to_screen_name: '‮evil' }).replyTo, undefined);
});

test('a character carries at most 32 marks: a cluster of thousands is cut, stacked marks are kept', () => {
  const text = (t: string) => fxPost({ text: t }).text;
  assert.equal(text(`a${'\u0301'.repeat(25_000)} b`), `a${'\u0301'.repeat(32)} b`);
  assert.equal(text(`${'\u{e0100}'.repeat(5000)}x`), `${'\u{e0100}'.repeat(32)}x`, 'marks with no letter too');
  const zalgo = 'Z̸̡̢̛̗̘̙̜̝̞̟̠̊̋̌̍̎̏̐a̴̧̨̛̛̛̙̟̣̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼';
  assert.equal(text(zalgo), zalgo);
  assert.equal(text(`Z${'\u0301\u200d'.repeat(300)} b`), `Z${'\u0301\u200d'.repeat(16)} b`, 'joiners between marks');
});

test('hundreds of jamo, prepended marks or virama links are not one cluster: runs of one kind keep 8', () => {
  const text = (t: string) => fxPost({ text: t }).text;
  assert.equal(text(`가${'\u11a8'.repeat(400)} b`), `가${'\u11a8'.repeat(8)} b`);
  assert.equal(text(`${'\u1100'.repeat(400)}\u1161 b`), `${'\u1100'.repeat(8)}\u1161 b`);
  assert.equal(text(`${'\u0600'.repeat(300)}12 b`), `${'\u0600'.repeat(8)}12 b`);
  assert.equal(text(`${'\u0d4e'.repeat(100)}a b`), `${'\u0d4e'.repeat(8)}a b`);
  assert.equal(text(`${'क्'.repeat(100)}क b`), `${'क्'.repeat(8)}क b`, 'consonants linked by a virama');
  assert.equal(text(`${'ক্\u200d'.repeat(100)}ক b`), `${'ক্\u200d'.repeat(8)}ক b`);
  // Old Hangul and the end of an ayah are left as they are.
  for (const kept of ['ᄒᆞᆫ글 ᄀᆞᄅᆞᆷ', '۝١٢ آية', 'স্বাস্থ্য রাষ্ট্র', 'त्र्य क्ष्म्य']) assert.equal(text(kept), kept);
});

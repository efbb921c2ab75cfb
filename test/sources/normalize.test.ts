import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { segmentText, type Post } from '../../src/sources/post.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { listBodies, readJson, requireShared, SAMPLES_DIR, SHARED_FIXTURES } from '../fixtures.ts';

function found(result: { kind: string; post?: Post; detail?: string }, label: string): Post {
  assert.equal(result.kind, 'found', `${label}: ${result.detail ?? ''}`);
  return result.post!;
}

const syn = (file: string, root = SHARED_FIXTURES) =>
  found(normalizeSyndication(readJson(path.join(root, 'upstream', 'syndication', file))), file);
const fx = (file: string, root = SHARED_FIXTURES) =>
  found(normalizeFxTwitter(200, readJson(path.join(root, 'upstream', 'fxtwitter', file))), file);

/** Invariants every normalized post keeps, whatever its source. */
function checkInvariants(post: Post, label: string): void {
  assert.match(post.id, /^\d{1,19}$/, label);
  assert.ok(post.author.handle, label);
  assert.ok(!Number.isNaN(Date.parse(post.createdAt)), label);
  assert.doesNotMatch(post.text, /https:\/\/t\.co\//, `${label}: t.co link left in text`);
  assert.doesNotMatch(post.text, /&(amp|lt|gt);/, `${label}: HTML entity left in text`);
  assert.doesNotMatch(post.text, /\s$/u, `${label}: trailing space`);
  for (const seg of segmentText(post)) {
    if (seg.type === 'mention') assert.equal(seg.text.toLowerCase(), `@${seg.handle}`.toLowerCase(), label);
    if (seg.type === 'hashtag') assert.equal(seg.text.replace(/^[#＃]/, ''), seg.tag, label);
    if (seg.type === 'cashtag') assert.equal(seg.text, `$${seg.symbol}`, label);
    if (seg.type === 'url') assert.equal(seg.text, seg.display, label);
  }
  for (const m of post.media) {
    const url = m.type === 'photo' ? m.url : m.poster;
    if (url !== undefined) assert.match(url, /^https:\/\/pbs\.twimg\.com\//, label);
    if (m.type !== 'photo' && m.mp4) assert.match(m.mp4, /\.mp4(\?|$)/, label);
  }
  for (const v of Object.values(post.counts)) assert.ok(Number.isInteger(v) && v >= 0, label);
  if (post.quoted) checkInvariants(post.quoted, `${label} (quoted)`);
}

test('every recorded syndication and FxTwitter body normalizes', (t) => {
  if (!requireShared(t)) return;
  const files = [...listBodies('syndication'), ...listBodies('syndication-older-shape'), ...listBodies('fxtwitter')];
  assert.ok(files.length >= 25, `found ${files.length} recorded bodies`);
  let posts = 0;
  for (const file of files) {
    const body = readJson(file);
    if (file.includes('fxtwitter')) {
      if (path.basename(file).startsWith('user-')) {
        assert.notEqual(normalizeFxTwitter(200, body).kind, 'found', 'a profile body is not a post');
        continue;
      }
      checkInvariants(found(normalizeFxTwitter(200, body), file), file);
    } else if (path.basename(file).startsWith('tombstone')) {
      assert.equal(normalizeSyndication(body).kind, 'not_found');
      continue;
    } else {
      checkInvariants(found(normalizeSyndication(body), file), file);
    }
    posts++;
  }
  t.diagnostic(`${posts} recorded posts normalized`);
});

test('recorded syndication: plain text, counts, verification', (t) => {
  if (!requireShared(t)) return;
  const p = syn('20.json');
  assert.equal(p.text, 'just setting up my twttr');
  assert.equal(p.author.handle, 'jack');
  assert.equal(p.author.verification, 'blue');
  assert.equal(p.author.avatarShape, 'circle');
  assert.equal(p.createdAt, '2006-03-21T20:50:14.000Z');
  assert.deepEqual(p.counts, { replies: 17999, likes: 309060 });
  assert.equal((p.counts as Record<string, number>).reposts, undefined, 'an unknown count stays unknown');
  assert.equal(p.url, 'https://x.com/jack/status/20');
});

test('recorded syndication: quote with video, decoded entities, expanded URL', (t) => {
  if (!requireShared(t)) return;
  const p = syn('1599367266448994304.json');
  assert.ok(p.text.includes('drei <Html> component'));
  assert.ok(p.text.endsWith('codesandbox.io/s/priceless-ba…'));
  const url = p.entities.find((e) => e.type === 'url');
  assert.equal(url?.type === 'url' && url.url, 'https://codesandbox.io/s/priceless-banzai-2yufxc?file=/src/App.js');
  assert.ok(p.entities.some((e) => e.type === 'mention' && e.handle === 'CantBeFaraz'));
  assert.equal(p.media.length, 1);
  const v = p.media[0];
  assert.equal(v.type, 'video');
  assert.equal(
    v.type === 'video' && v.mp4,
    'https://video.twimg.com/ext_tw_video/1599366375776083969/pu/vid/1126x720/tp-jnCTruXc-U9oc.mp4?tag=12',
  );
  assert.equal(v.type === 'video' && v.durationMs, 32900);
  assert.equal(p.author.name, '☄︎');
  const q = p.quoted!;
  assert.equal(q.author.handle, 'CantBeFaraz');
  assert.deepEqual(
    q.entities.filter((e) => e.type === 'mention').map((e) => e.type === 'mention' && e.handle),
    ['threejs', 'tldraw', 'trusktr'],
  );
  assert.equal(q.media[0].type, 'video');
  assert.deepEqual(q.counts, { replies: 16, reposts: 55, likes: 476 });
});

test('recorded syndication: note, business, square avatar, reply, government, card, article, 4 photos', (t) => {
  if (!requireShared(t)) return;
  const note = syn('1623411400545632256.json');
  assert.equal(note.isNote, true);
  assert.equal(note.truncated, true);
  assert.equal(note.author.verification, 'business');
  assert.equal(note.author.avatarShape, 'square');
  assert.ok(note.text.endsWith('tap this 👉'));

  const reply = syn('1674865731136020505.json');
  assert.ok(reply.text.startsWith('Temporary emergency measure.'));
  assert.equal(reply.replyTo?.handle, 'xDaily');
  assert.equal(reply.entities.length, 0, 'the hidden leading mention is not an entity of the visible text');

  const gov = syn('463440424141459456.json');
  assert.equal(gov.author.verification, 'government');
  assert.equal(gov.media.length, 1);
  assert.ok(gov.entities.some((e) => e.type === 'hashtag'));
  assert.ok(gov.entities.some((e) => e.type === 'mention'));

  const card = syn('1628832338187636740.json');
  assert.equal(card.card?.url, 'https://nextjs.org/13-2');
  assert.equal(card.card?.large, true);
  assert.match(card.card?.title ?? '', /Next\.js 13\.2/);
  assert.ok(card.text.includes('\n◆ Route Handlers\n'));

  const article = syn('2064997219648913457.json');
  assert.equal(article.card?.url, 'https://x.com/i/article/2064823727674503169');
  assert.match(article.card?.title ?? '', /^My Instagram was dead/);

  const four = syn('2089040211736981944.json');
  assert.equal(four.media.filter((m) => m.type === 'photo').length, 4);
  assert.equal(four.entities.filter((e) => e.type === 'mention').length, 3);
  assert.equal(four.isNote, true);
  assert.doesNotMatch(four.text, /&amp;/);
});

test('older syndication captures give the same text as current ones', (t) => {
  if (!requireShared(t)) return;
  for (const file of listBodies('syndication-older-shape')) {
    const name = path.basename(file);
    const older = found(normalizeSyndication(readJson(file)), file);
    const current = syn(name);
    assert.equal(older.text, current.text, name);
    assert.equal(older.media.length, current.media.length, name);
  }
});

test('recorded FxTwitter: video, all counts, photos, note quote with external media', (t) => {
  if (!requireShared(t)) return;
  const v = fx('1790637656616943991.json');
  assert.equal(v.text, 'One of the most intense moments in history');
  assert.deepEqual(v.counts, {
    replies: 835,
    reposts: 6809,
    likes: 133296,
    quotes: 502,
    bookmarks: 13454,
    views: 34495903,
  });
  assert.equal(v.author.verification, 'blue');
  assert.equal(v.media[0].type, 'video');
  assert.equal(v.media[0].type === 'video' && v.media[0].durationMs, 15488);
  assert.match(v.media[0].type === 'video' ? (v.media[0].mp4 ?? '') : '', /728x720/);

  const three = fx('1972518817797669282.json');
  assert.equal(three.media.length, 3);
  assert.equal(three.quoted?.isNote, true);
  assert.equal(three.quoted?.card?.domain, 'youtube.com');
  assert.deepEqual(
    three.quoted?.entities.filter((e) => e.type === 'hashtag').map((e) => e.type === 'hashtag' && e.tag),
    ['GenshinImpact', 'Flins'],
  );
  assert.ok(three.quoted?.text.includes('youtu.be/bxya0iOjQMk'));

  const zh = fx('2056590419366932809.json');
  assert.equal(zh.lang, 'zh');
  assert.equal(zh.isNote, true);
  assert.equal(zh.counts.views, undefined);
  assert.equal(zh.counts.likes, 446);
  assert.equal(zh.media.length, 1);
  assert.ok(zh.text.startsWith('个人知识库的天花板来了！'));
});

test('hand-made bodies: two photos, GIF, RTL, cashtags, poll, emoji (package samples)', () => {
  const two = syn('1900000000000000006.json', SAMPLES_DIR);
  assert.deepEqual(
    two.media.map((m) => m.type),
    ['photo', 'photo'],
  );
  assert.equal(two.media[0].alt, 'An orange gradient');
  assert.equal(two.text, 'Two photos side by side');

  const gif = syn('1900000000000000009.json', SAMPLES_DIR);
  assert.equal(gif.media[0].type, 'gif');
  assert.equal(gif.media[0].type === 'gif' && gif.media[0].mp4, 'https://video.twimg.com/tweet_video/PSgif01.mp4');

  const ar = syn('1900000000000000002.json', SAMPLES_DIR);
  assert.ok(ar.entities.some((e) => e.type === 'hashtag' && e.tag === 'اختبار'));
  assert.equal(ar.lang, 'ar');

  const ent = syn('1900000000000000001.json', SAMPLES_DIR);
  assert.ok(ent.entities.some((e) => e.type === 'cashtag' && e.symbol === 'ACME'));
  assert.ok(ent.text.includes('Thanks @danadoe & team!'));
  assert.ok(ent.text.includes('👩🏽‍🚀👨‍👩‍👧‍👦🏳️‍🌈🇯🇵'));
  const url = segmentText(ent).find((s) => s.type === 'url');
  assert.equal(url?.text, 'example.com/blog/shipping…');

  const poll = syn('1900000000000000010.json', SAMPLES_DIR);
  assert.deepEqual(poll.poll?.choices, [
    { label: 'PNG', votes: 1234 },
    { label: 'SVG', votes: 567 },
    { label: 'Markdown', votes: 890 },
  ]);
  assert.equal(poll.poll?.totalVotes, 2691);
  assert.equal(poll.poll?.final, true);

  const long = fx('1900000000000000013.json', SAMPLES_DIR);
  assert.equal(long.isNote, true);
  assert.equal(long.text.split('\n\n').length, 4);
  assert.ok(long.entities.some((e) => e.type === 'url' && e.url === 'https://example.org/notes'));
});

test('tombstones, empty bodies and missing users are "not found"; FxTwitter errors are classified', () => {
  for (const body of [
    { __typename: 'TweetTombstone', tombstone: {} },
    { __typename: 'TweetTombstone', tombstone: { text: { text: 'This Post is from a suspended account.' } } },
    {},
    { __typename: 'Tweet', id_str: '5', text: 'x', created_at: '2020-01-01T00:00:00Z' },
  ]) {
    assert.equal(normalizeSyndication(body).kind, 'not_found', JSON.stringify(body));
  }
  for (const body of [null, [], 'str', { __typename: 'Tweet', user: { screen_name: 'a' }, text: 'x' }]) {
    assert.equal(normalizeSyndication(body).kind, 'malformed', JSON.stringify(body));
  }
  assert.equal(normalizeFxTwitter(404, { code: 404, message: 'NOT_FOUND', tweet: null }).kind, 'not_found');
  assert.equal(normalizeFxTwitter(401, { code: 401, message: 'PRIVATE_TWEET', tweet: null }).kind, 'not_found');
  assert.equal(normalizeFxTwitter(500, { code: 500, message: 'API_FAILURE', tweet: null }).kind, 'failed');
  assert.equal(normalizeFxTwitter(200, { code: 200, message: 'OK' }).kind, 'failed');
  assert.equal(normalizeFxTwitter(200, { code: 200, tweet: { id: '1', text: 'no author' } }).kind, 'failed');
});

test('a hashtag found in text keeps its vowel signs and marks, as X links it', () => {
  const text =
    'जीत #चुनाव2024! ନମସ୍କାର #ରଥଯାତ୍ରା. #བོད་ཡིག #ދިވެހިރާއްޖެ، #தமிழ் #123 C# a#b #️⃣ ❤️#love #a～b ＃全角タグ a＃b #tag#two #x://y';
  const body = {
    code: 200,
    message: 'OK',
    tweet: {
      id: '1800000000000000099',
      url: 'https://x.com/a/status/1800000000000000099',
      text,
      author: { id: '1', name: 'A', screen_name: 'a' },
      created_at: 'Thu Apr 02 10:00:00 +0000 2026',
      created_timestamp: 1775124000,
    },
  };
  const post = found(normalizeFxTwitter(200, body), 'hashtags');
  assert.deepEqual(
    segmentText(post).flatMap((s) => (s.type === 'hashtag' ? [s.text] : [])),
    ['#चुनाव2024', '#ରଥଯାତ୍ରା', '#བོད་ཡིག', '#ދިވެހިރާއްޖެ', '#தமிழ்', '#love', '#a～b', '＃全角タグ'],
  );
  assert.equal(
    post.entities.filter((e) => e.type === 'hashtag').at(-1)?.tag,
    '全角タグ',
    'the tag is the word after the sign',
  );
});

test('a syndication body without entities has its mentions, tags and links found in the text', () => {
  const text =
    '𝒜😀 Hi @abcdefghijklmnopqrst ＠wide @toolongtoolongtoolong1 #tag $ACME https://example.com/a?x=1&amp;y=2 &lt;https://e.org/b&gt; https://t.co/m1';
  const media = [...text].length - 'https://t.co/m1'.length;
  const post = found(
    normalizeSyndication({
      __typename: 'Tweet',
      id_str: '25',
      text,
      created_at: '2026-04-02T10:00:00.000Z',
      user: { name: 'A', screen_name: 'a' },
      mediaDetails: [
        { type: 'photo', media_url_https: 'https://pbs.twimg.com/media/x.jpg', indices: [media, media + 15] },
      ],
    }),
    'no entities',
  );
  assert.equal(
    post.text,
    '𝒜😀 Hi @abcdefghijklmnopqrst ＠wide @toolongtoolongtoolong1 #tag $ACME example.com/a?x=1&y=2 <e.org/b>',
    'links shown as X shows them, the media link removed',
  );
  assert.deepEqual(
    segmentText(post).flatMap((s) => (s.type === 'text' ? [] : [`${s.type} ${s.text}`])),
    [
      'mention @abcdefghijklmnopqrst',
      'mention ＠wide',
      'hashtag #tag',
      'cashtag $ACME',
      'url example.com/a?x=1&y=2',
      'url e.org/b',
    ],
  );
  assert.deepEqual(
    post.entities.flatMap((e) => (e.type === 'url' ? [e.url] : [])),
    ['https://example.com/a?x=1&y=2', 'https://e.org/b'],
  );
});

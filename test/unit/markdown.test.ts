import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { marked } from 'marked';
import { renderMarkdownOnce } from '../../src/markdown/memo.ts';
import { renderMarkdown, formatUtc } from '../../src/markdown/render.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { type Post, shownText } from '../../src/sources/post.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { decodeHtmlEntities } from '../../src/sources/text.ts';
import { hasShared, listBodies, readJson, SAMPLES_DIR } from '../fixtures.ts';

const OFF = { includeStats: false, includeMedia: false, includeQuoted: false };

function load(file: string): Post {
  const body = readJson(file);
  const r = file.includes('fxtwitter') ? normalizeFxTwitter(200, body) : normalizeSyndication(body);
  if (r.kind !== 'found') throw new Error(`${file}: ${r.kind}`);
  return r.post;
}

function toHtml(md: string): string {
  return marked.parse(md, { async: false, gfm: true }) as string;
}

/** What a reader sees: tags dropped, breaks as newlines, references decoded. */
function visibleText(html: string): string {
  return decodeHtmlEntities(
    html
      .replace(/<br\s*\/?>\n?/g, '\n')
      .replace(/<\/p>\s*<p>/g, '\n\n')
      .replace(/<[^>]+>/g, '')
      .trim(),
  );
}

/** The post's text, with the ellipsis that marks one the source gave only the first part of. */
function expectedText(post: Post): string {
  return shownText(post)
    .text.split('\n')
    .map((l) => l.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '')
    .replace(/\n\n+(?=\n)/g, '\n');
}

const samplePosts = [...listBodies('syndication', SAMPLES_DIR), ...listBodies('fxtwitter', SAMPLES_DIR)];
const recordedPosts = hasShared
  ? [...listBodies('syndication'), ...listBodies('fxtwitter')].filter((f) => !/tombstone|user-/.test(path.basename(f)))
  : [];

for (const file of [...samplePosts, ...recordedPosts]) {
  test(`Markdown of ${path.relative(path.resolve(SAMPLES_DIR, '..', '..'), file)} renders to exactly the post's text`, () => {
    const post = load(file);
    const md = renderMarkdown(post, OFF);
    const html = toHtml(md);
    const parts = visibleText(html).split('\n\n');
    assert.equal(parts[0], `@${post.author.handle} (${post.author.name}) · ${formatUtc(post.createdAt)}`);
    assert.equal(parts.at(-1), post.url);
    // A reply says whom it answers on the line after the author, as the card does.
    if (post.replyTo) assert.equal(parts[1], `Replying to @${post.replyTo.handle}`);
    let body = parts.slice(post.replyTo ? 2 : 1, -1).join('\n\n');
    if (post.card?.title) body = body.slice(0, body.lastIndexOf('\n\n'));
    if (post.poll) body = body.slice(0, body.lastIndexOf('\n\n'));
    assert.equal(body, expectedText(post));
    // No stray emphasis, code, headings, lists or quotes from characters in the post.
    const strong = html.match(/<strong>/g)?.length ?? 0;
    assert.equal(strong, 1, 'only the author handle is bold');
    // The poll's choices are the one list, with an item per choice.
    const lists = html.match(/<ul>[\s\S]*?<\/ul>/g) ?? [];
    assert.equal(lists.length, post.poll ? 1 : 0);
    if (post.poll) assert.equal(lists[0]?.match(/<li>/g)?.length, post.poll.choices.length);
    assert.doesNotMatch(
      lists.reduce((h, l) => h.replace(l, ''), html),
      /<(em|code|h\d|ul|ol|li|blockquote|pre|img|script|del|table)[\s>]/,
    );
    const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    const entityLinks = post.entities.length + (post.card?.title ? 1 : 0);
    assert.ok(links.length >= entityLinks, `${links.length} links for ${entityLinks} entities`);
  });
}

test('entities become links to X, URLs to their expanded form', () => {
  const post = load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000001.json'));
  const html = toHtml(renderMarkdown(post, OFF));
  assert.match(html, /<a href="https:\/\/x.com\/danadoe">@danadoe<\/a>/);
  assert.match(html, /<a href="https:\/\/x.com\/hashtag\/launch">#launch<\/a>/);
  assert.match(html, /<a href="https:\/\/x.com\/search\?q=%24ACME">\$ACME<\/a>/);
  assert.match(html, /<a href="https:\/\/example.com\/blog\/shipping-day\?ref=x">example.com\/blog\/shipping…<\/a>/);
});

test('a reply names the post it answers, linked, though its text leaves the mention out', () => {
  const post = load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000014.json'));
  const md = renderMarkdown(post, OFF);
  assert.equal(
    md.split('\n\n')[1],
    'Replying to [@cityofexample](https://x.com/cityofexample/status/1900000000000000016)',
  );
  assert.match(md, /\n\nThank you for fixing the streetlights/);
  const noId = renderMarkdown({ ...post, replyTo: { handle: 'some_one' } }, OFF);
  assert.equal(noId.split('\n\n')[1], 'Replying to [@some\\_one](https://x.com/some_one)');
});

test('hostile text stays text: no HTML, no emphasis, no lists', () => {
  const post = load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000017.json'));
  const md = renderMarkdown(post);
  const html = toHtml(md);
  assert.doesNotMatch(html, /<script|<img|<b>|<em>|<code>|<h1|<ol|<blockquote/);
  assert.ok(visibleText(html).includes('<script>alert(1)</script><img src=x onerror=alert(2)>'));
  assert.ok(visibleText(html).includes('(Dana "<b>" Doe)'));
});

test('options: stats, media and quoted on and off', () => {
  const quote = load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000011.json'));
  const full = renderMarkdown(quote);
  assert.match(full, /^> \*\*@acme\*\* \(Acme Corp\) · 2026-04-09 11:00 UTC$/m);
  assert.match(full, /^> !\[Image 1\]\(https:\/\/pbs\.twimg\.com\/media\/PSq1\.png\)$/m);
  assert.match(full, /^Replies: 2 · Likes: 15$/m);
  assert.ok(full.trimEnd().endsWith('https://x.com/danadoe/status/1900000000000000011'));
  const bare = renderMarkdown(quote, OFF);
  assert.doesNotMatch(bare, /^>/m);
  assert.doesNotMatch(bare, /Replies:/);
  assert.doesNotMatch(bare, /!\[Image/);
  assert.match(toHtml(full), /<blockquote>/);

  const video = load(path.join(SAMPLES_DIR, 'upstream/fxtwitter/1900000000000000015.json'));
  const v = renderMarkdown(video);
  assert.match(
    v,
    /^\[Video\]\(https:\/\/video\.twimg\.com\/amplify_video\/PSvid01\/vid\/avc1\/1280x720\/best\.mp4\)$/m,
  );
  assert.match(v, /^Replies: 40 · Retweets: 120 · Likes: 1,500 · Views: 250,000$/m);
  const gif = renderMarkdown(load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000009.json')));
  assert.match(gif, /^\[GIF\]\(https:\/\/video\.twimg\.com\/tweet_video\/PSgif01\.mp4\)$/m);
  const four = renderMarkdown(load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000008.json')));
  assert.equal(four.match(/!\[Image \d\]/g)?.length, 4);
});

test('poll lines give votes and percentages', () => {
  const md = renderMarkdown(load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000010.json')));
  assert.match(md, /^- PNG: 1,234 votes \(45\.9%\)\n- SVG: 567 votes \(21\.1%\)\n- Markdown: 890 votes \(33\.1%\)$/m);
  // A CommonMark renderer shows the choices as a list of three items.
  const html = toHtml(md);
  assert.deepEqual(
    [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]),
    ['PNG: 1,234 votes (45.9%)', 'SVG: 567 votes (21.1%)', 'Markdown: 890 votes (33.1%)'],
  );
});

test('a poll whose total is older than its counts gives shares of the counts', () => {
  const post = load(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000010.json'));
  const poll = { ...post.poll!, totalVotes: 1 };
  const md = renderMarkdown({ ...post, poll });
  assert.match(md, /^- PNG: 1,234 votes \(45\.9%\)\n- SVG: 567 votes \(21\.1%\)\n- Markdown: 890 votes \(33\.1%\)$/m);
});

test('the long post keeps every paragraph and line break', () => {
  const post = load(path.join(SAMPLES_DIR, 'upstream/fxtwitter/1900000000000000013.json'));
  const html = toHtml(renderMarkdown(post, OFF));
  assert.equal(html.match(/<p>/g)?.length, 6);
});

test('Markdown kept per post object gives what rendering gives, for every option set, asked in any order', () => {
  const posts = ['syndication/1900000000000000011.json', 'fxtwitter/1900000000000000013.json'].map((f) =>
    load(path.join(SAMPLES_DIR, 'upstream', f)),
  );
  const sets = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => ({
    includeStats: !!(n & 1),
    includeMedia: !!(n & 2),
    includeQuoted: !!(n & 4),
  }));
  for (const order of [sets, [...sets].reverse(), [...sets, ...sets]]) {
    for (const post of posts)
      for (const options of order) assert.equal(renderMarkdownOnce(post, options), renderMarkdown(post, options));
  }
  // The option sets do give different Markdown: this post's only photo is in its quote, so
  // includeMedia matters only with includeQuoted, and 6 of the 8 sets differ.
  assert.equal(new Set(sets.map((o) => renderMarkdownOnce(posts[0], o))).size, 6);
});

test('a carriage return is a line break: no blank lines, and a quoted post keeps every line in its quote', () => {
  const body = readJson(path.join(SAMPLES_DIR, 'upstream/syndication/1900000000000000011.json')) as {
    text: string;
    display_text_range?: number[];
    quoted_tweet: { text: string; display_text_range?: number[] };
  };
  body.text = 'first\r\nsecond&#13;# not a heading';
  body.quoted_tweet.text = 'quoted\r- not a list\r\n# not a heading';
  delete body.display_text_range;
  delete body.quoted_tweet.display_text_range;
  const r = normalizeSyndication(body);
  if (r.kind !== 'found') throw new Error(r.kind);
  assert.equal(r.post.text, 'first\nsecond\n# not a heading');
  assert.equal(r.post.quoted?.text, 'quoted\n- not a list\n# not a heading');
  const html = toHtml(renderMarkdown(r.post));
  assert.doesNotMatch(html, /<h1|<ul|<li/);
  const quote = /<blockquote>([\s\S]*)<\/blockquote>/.exec(html)?.[1] ?? '';
  for (const line of ['quoted', '- not a list', '# not a heading']) assert.ok(visibleText(quote).includes(line), line);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { marked } from 'marked';
import { build } from '../helper.ts';

// Hostile URLs in upstream bodies, through the content endpoints; the Markdown is parsed by a
// CommonMark parser (marked, with and without GFM's autolinks) and every link in the result is
// checked: only http(s), only the links the post really has, media only on X's media hosts.

const INJECT = ')\n\n[evil](javascript:alert(1)';
const ID = '1900000000000060001';
const QUOTE_ID = '1900000000000060002';

function hostileFxBody() {
  const text = 'Go https://t.co/a1 https://t.co/a2 https://t.co/a3 https://t.co/a4 #tag';
  return {
    code: 200,
    tweet: {
      id: ID,
      text,
      raw_text: {
        text,
        facets: [
          { type: 'url', indices: [3, 18], replacement: 'javascript:alert(1)', display: 'example.com/1' },
          { type: 'url', indices: [19, 34], replacement: `https://example.com/a${INJECT}`, display: 'example.com/2' },
          { type: 'url', indices: [35, 50], replacement: 'data:text/html,<script>alert(1)</script>', display: 'x.y' },
          { type: 'url', indices: [51, 66], replacement: 'https://user:pw@example.com/<b>"q"', display: 'z.y' },
          { type: 'hashtag', indices: [67, 71], original: `#tag${INJECT}` },
        ],
      },
      author: { name: `Dana${INJECT}`, screen_name: 'dana' },
      created_timestamp: 1664971200,
      media: {
        all: [
          { type: 'photo', url: `https://pbs.twimg.com/media/a.jpg${INJECT}` },
          { type: 'photo', url: 'http://169.254.169.254/latest/meta-data/a.jpg' },
          { type: 'photo', url: 'javascript:alert(1)//pbs.twimg.com/a.jpg' },
          { type: 'video', thumbnail_url: 'https://pbs.twimg.com/media/v.jpg', url: 'javascript:alert(1)//x.mp4' },
        ],
        external: { url: `javascript:alert(1)//${INJECT}` },
      },
      quote: {
        id: QUOTE_ID,
        text: 'quoted https://t.co/q',
        raw_text: {
          text: 'quoted https://t.co/q',
          facets: [{ type: 'url', indices: [7, 21], replacement: 'JaVaScRiPt:alert(1)', display: 'q.example' }],
        },
        author: { name: 'Q', screen_name: 'quoted' },
        created_timestamp: 1664971100,
        media: { all: [{ type: 'gif', thumbnail_url: `https://video.twimg.com/x.jpg${INJECT}` }] },
      },
    },
  };
}

function hostileSynBody() {
  return {
    __typename: 'Tweet',
    id_str: ID,
    text: 'card post',
    created_at: '2022-10-05T12:00:00.000Z',
    user: { name: 'Dana', screen_name: 'dana' },
    card: {
      name: 'summary',
      url: 'https://t.co/card',
      binding_values: { title: { string_value: `Title${INJECT}` } },
    },
    entities: { urls: [{ url: 'https://t.co/card', expanded_url: 'data:text/html,hi', indices: [0, 4] }] },
  };
}

/** Every href and src the Markdown turns into, by a CommonMark parser with and without GFM. */
function linksOf(md: string, gfm: boolean): { hrefs: string[]; srcs: string[] } {
  const html = marked.parse(md, { async: false, gfm }) as string;
  const attr = (name: string) =>
    [...html.matchAll(new RegExp(`<[a-z]+[^>]*\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
  return { hrefs: attr('href'), srcs: attr('src') };
}

function assertSafe(url: string, hosts: string[], what: string): void {
  const decoded = url.replace(/&amp;/g, '&');
  const u = new URL(decoded);
  assert.ok(u.protocol === 'https:' || u.protocol === 'http:', `${what}: ${url}`);
  assert.ok(hosts.includes(u.hostname), `${what} on ${u.hostname}: ${url}`);
}

test('hostile URLs from upstream never become javascript:/data: links, extra links or non-X media links', async (t) => {
  const h = await build(t);
  const { apiKey } = await h.account('business');
  h.upstream.setBody('fxtwitter', ID, hostileFxBody());
  const single = await h.app.inject({ method: 'GET', url: `/api/v1/content/${ID}`, headers: { 'x-api-key': apiKey } });
  assert.equal(single.statusCode, 200, single.body);
  const bulk = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': apiKey },
    payload: { tweetIds: [ID] },
  });
  assert.equal(bulk.statusCode, 200, bulk.body);
  for (const md of [single.body, bulk.json().results[0].markdown as string]) {
    for (const gfm of [false, true]) {
      const { hrefs, srcs } = linksOf(md, gfm);
      for (const href of hrefs) assertSafe(href, ['example.com', 'x.com', 'pbs.twimg.com', 'video.twimg.com'], 'link');
      for (const src of srcs) assertSafe(src, ['pbs.twimg.com'], 'image');
      // The post's own links: one https URL entity, the hashtag, the video (its poster: the mp4 is
      // not http), the quote's GIF; GFM also links the bare post URL at the end.
      assert.equal(hrefs.length, gfm ? 5 : 4, `${gfm ? 'GFM' : 'CommonMark'} links: ${hrefs.join(' ')}\n${md}`);
      assert.equal(srcs.length, 1, `one image, on pbs.twimg.com: ${srcs.join(' ')}`);
    }
    // The injection stays text, and stays on its line: the name's line breaks are not kept.
    assert.ok(md.startsWith('**@dana** (Dana) \\[evil\\](javascript:alert(1)) · '), md.slice(0, 80));
    assert.doesNotMatch(md, /(?<!\\)\]\((javascript|data):/i, 'no unescaped ](javascript: or ](data:');
  }
});

test('a link card whose URL is not http(s) keeps its title as text, without a link', async (t) => {
  const h = await build(t);
  const { apiKey } = await h.account('business');
  h.upstream.setFault(ID, { status: 503 }, 'fxtwitter');
  h.upstream.setBody('syndication', ID, hostileSynBody());
  const res = await h.app.inject({ method: 'GET', url: `/api/v1/content/${ID}`, headers: { 'x-api-key': apiKey } });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /Title/);
  const { hrefs } = linksOf(res.body, false);
  assert.deepEqual(hrefs, [], `no links: ${res.body}`);
});

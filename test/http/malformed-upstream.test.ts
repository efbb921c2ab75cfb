import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { build, type Harness } from '../helper.ts';

// Generated malformed upstream bodies: a complete body of each source (every field the normalizers
// read), then one field at a time given a value of the wrong type. Each must make its source fail
// (502 when the other source fails too; the other source's post when it answers), through every
// endpoint and format: never a 500, never a charge for what was not delivered.

const MEDIA = 'https://pbs.twimg.com/media';

function fullFxBody(id: string) {
  const tweet = (tid: string) => ({
    id: tid,
    text: 'Hello @jack #tag $TSLA https://t.co/abc',
    raw_text: {
      text: 'Hello @jack #tag $TSLA https://t.co/abc',
      display_text_range: [0, 39],
      facets: [
        { type: 'mention', indices: [6, 11], original: '@jack' },
        { type: 'hashtag', indices: [12, 16], original: '#tag' },
        { type: 'cashtag', indices: [17, 22], original: '$TSLA' },
        { type: 'url', indices: [23, 39], replacement: 'https://example.com/a', display: 'example.com/a' },
      ],
    },
    author: {
      id: '99',
      name: 'Dana',
      screen_name: 'dana',
      avatar_url: `https://pbs.twimg.com/profile_images/1/a_normal.jpg`,
      verification: { verified: true, type: 'business' },
      profile_image_shape: 'Circle',
    },
    replies: 1,
    retweets: 2,
    likes: 3,
    bookmarks: 4,
    quotes: 5,
    views: 6,
    created_at: 'Wed Oct 05 12:00:00 +0000 2022',
    created_timestamp: 1664971200,
    is_note_tweet: false,
    lang: 'en',
    replying_to: 'jack',
    replying_to_status: '20',
    media: {
      all: [
        { type: 'photo', url: `${MEDIA}/p1.jpg`, width: 800, height: 600, altText: 'a photo' },
        {
          type: 'video',
          url: 'https://video.twimg.com/v.mp4',
          thumbnail_url: `${MEDIA}/v1.jpg`,
          width: 640,
          height: 360,
          duration: 12.5,
          formats: [{ url: 'https://video.twimg.com/v.mp4', bitrate: 100, container: 'mp4' }],
          variants: [{ url: 'https://video.twimg.com/w.mp4', bitrate: 50, content_type: 'video/mp4' }],
        },
      ],
      photos: [{ type: 'photo', url: `${MEDIA}/p1.jpg`, width: 800, height: 600 }],
      videos: [],
      external: { url: 'https://example.com/a', width: 1200, height: 630, thumbnail_url: `${MEDIA}/c1.jpg` },
    },
    poll: {
      choices: [
        { label: 'Yes', count: 10 },
        { label: 'No', count: 10 },
      ],
      total_votes: 20,
      ends_at: '2022-10-06T12:00:00Z',
      time_left_en: 'Final results',
    },
  });
  return { code: 200, message: 'OK', tweet: { ...tweet(id), quote: tweet('1900000000000077777') } };
}

function fullSynBody(id: string) {
  const tweet = (tid: string) => ({
    __typename: 'Tweet',
    id_str: tid,
    text: 'Hello @jack #tag $TSLA https://t.co/abc https://t.co/pic',
    lang: 'en',
    created_at: '2022-10-05T12:00:00.000Z',
    display_text_range: [0, 39],
    entities: {
      hashtags: [{ indices: [12, 16], text: 'tag' }],
      urls: [
        {
          indices: [23, 39],
          url: 'https://t.co/abc',
          expanded_url: 'https://example.com/a',
          display_url: 'example.com/a',
        },
      ],
      user_mentions: [{ indices: [6, 11], screen_name: 'jack' }],
      symbols: [{ indices: [17, 22], text: 'TSLA' }],
      media: [{ indices: [40, 56] }],
    },
    user: {
      id_str: '99',
      name: 'Dana',
      screen_name: 'dana',
      is_blue_verified: true,
      verified: false,
      verified_type: 'Business',
      profile_image_shape: 'Square',
      profile_image_url_https: 'https://pbs.twimg.com/profile_images/1/a_normal.jpg',
    },
    favorite_count: 3,
    conversation_count: 1,
    reply_count: 1,
    retweet_count: 2,
    quote_count: 5,
    in_reply_to_screen_name: 'jack',
    in_reply_to_status_id_str: '20',
    mediaDetails: [
      {
        type: 'video',
        indices: [40, 56],
        media_url_https: `${MEDIA}/v1.jpg`,
        ext_alt_text: 'a video',
        original_info: { width: 640, height: 360 },
        video_info: {
          duration_millis: 12500,
          variants: [{ content_type: 'video/mp4', url: 'https://video.twimg.com/v.mp4', bitrate: 100 }],
        },
      },
    ],
    photos: [{ url: `${MEDIA}/p1.jpg`, width: 800, height: 600, accessibilityLabel: 'a photo' }],
    video: {
      poster: `${MEDIA}/v1.jpg`,
      durationMs: 12500,
      variants: [{ type: 'video/mp4', src: 'https://video.twimg.com/v.mp4' }],
    },
    card: {
      name: 'poll2choice_text_only',
      url: 'https://t.co/card',
      binding_values: {
        choice1_label: { string_value: 'Yes' },
        choice1_count: { string_value: '10' },
        choice2_label: { string_value: 'No' },
        choice2_count: { string_value: '10' },
        counts_are_final: { boolean_value: true },
        thumbnail_image_large: { image_value: { url: `${MEDIA}/c1.jpg`, width: 600, height: 315 } },
      },
    },
    article: {
      rest_id: '555',
      title: 'An article',
      preview_text: 'Preview',
      cover_media: {
        media_info: { original_img_url: `${MEDIA}/a1.jpg`, original_img_width: 1200, original_img_height: 600 },
      },
    },
    note_tweet: { id: 'n1' },
    parent: { id_str: '20', user: { screen_name: 'jack' } },
  });
  return { ...tweet(id), quoted_tweet: tweet('1900000000000077778') };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Values of another type than `v` (null is left out: several fields are nullable upstream). */
function wrongValuesFor(v: Json): Json[] {
  if (typeof v === 'string') return [12345, {}];
  if (typeof v === 'number') return ['7', {}];
  if (typeof v === 'boolean') return ['yes'];
  if (Array.isArray(v)) return [{}, 'ab'];
  return [5, 'ab'];
}

/** Every path into `body` (arrays through their first element), each with the value found there. */
function pathsOf(body: Json, at: (string | number)[] = []): Array<{ path: (string | number)[]; value: Json }> {
  const out: Array<{ path: (string | number)[]; value: Json }> = [];
  if (Array.isArray(body)) {
    if (body.length) out.push({ path: [...at, 0], value: body[0] }, ...pathsOf(body[0], [...at, 0]));
  } else if (body !== null && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) out.push({ path: [...at, k], value: v }, ...pathsOf(v, [...at, k]));
  }
  return out;
}

function withValue(body: Json, path: (string | number)[], value: Json): Json {
  const copy = structuredClone(body) as Record<string | number, Json>;
  let node = copy;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, Json>;
  node[path.at(-1)!] = value;
  return copy;
}

interface Case {
  name: string;
  target: 'fxtwitter' | 'syndication';
  body: Json;
}

function generatedCases(): Case[] {
  const cases: Case[] = [];
  for (const [target, full] of [
    ['fxtwitter', fullFxBody('0') as unknown as Json],
    ['syndication', fullSynBody('0') as unknown as Json],
  ] as const) {
    for (const { path, value } of pathsOf(full)) {
      for (const wrong of wrongValuesFor(value))
        cases.push({
          name: `${target} ${path.join('.')} = ${JSON.stringify(wrong)}`,
          target,
          body: withValue(full, path, wrong),
        });
    }
  }
  // The ones the issue found by hand, by name.
  const fx = fullFxBody('0') as unknown as Json;
  for (const [path, wrong] of [
    [['tweet', 'media', 'all'], {}],
    [['tweet', 'raw_text', 'facets'], 5],
    [['tweet', 'poll', 'choices'], 'ab'],
    [['tweet', 'text'], 12345],
    [['tweet', 'author', 'name'], 42],
    [['tweet', 'media', 'all', 0, 'url'], 42],
    [['tweet', 'created_timestamp'], 1e20],
    [['tweet', 'author', 'name'], {}],
  ] as Array<[(string | number)[], Json]>)
    cases.push({
      name: `issue: fxtwitter ${path.join('.')} = ${JSON.stringify(wrong)}`,
      target: 'fxtwitter',
      body: withValue(fx, path, wrong),
    });
  return cases;
}

/** Puts the case's post id into the body (FxTwitter under tweet.id, syndication at id_str). */
function forId(c: Case, id: string): Json {
  const body = structuredClone(c.body) as Record<string, Json>;
  const holder = c.target === 'fxtwitter' ? (body.tweet as Record<string, Json> | undefined) : body;
  if (
    holder &&
    typeof holder === 'object' &&
    !Array.isArray(holder) &&
    typeof holder[c.target === 'fxtwitter' ? 'id' : 'id_str'] === 'string'
  )
    holder[c.target === 'fxtwitter' ? 'id' : 'id_str'] = id;
  return body;
}

function requestsFor(id: string, apiKey: string): InjectOptions[] {
  const headers = { 'x-api-key': apiKey };
  return [
    { method: 'GET', url: `/api/v1/content/${id}`, headers: { ...headers, accept: 'text/markdown' } },
    { method: 'POST', url: '/api/v1/content/tweets', headers, payload: { tweetIds: [id] } },
    ...['svg', 'png', 'html'].map((format) => ({
      method: 'GET' as const,
      url: `/api/v1/screenshot/${id}?format=${format}`,
      headers,
    })),
  ];
}

async function used(h: Harness, accountId: string): Promise<number> {
  return (await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!)).used;
}

test('complete bodies of both sources render through every endpoint (the bases the cases below break)', async (t) => {
  const h = await build(t);
  const { apiKey } = await h.account('business');
  for (const target of ['fxtwitter', 'syndication'] as const) {
    const id = target === 'fxtwitter' ? '1900000000000070001' : '1900000000000070002';
    h.upstream.setBody(target, id, target === 'fxtwitter' ? fullFxBody(id) : fullSynBody(id));
    h.upstream.setFault(id, { status: 503 }, target === 'fxtwitter' ? 'syndication' : 'fxtwitter');
    for (const req of requestsFor(id, apiKey)) {
      const res = await h.app.inject(req);
      assert.equal(res.statusCode, 200, `${target} ${req.url}: ${res.body.slice(0, 200)}`);
      if (req.method === 'POST') assert.equal(res.json().successful, 1, `${target} bulk: ${res.body.slice(0, 300)}`);
    }
  }
});

test('generated malformed upstream bodies: a failed source (502 when both fail), never a 500, never a charge', async (t) => {
  const h = await build(t, { env: { POSTSHOT_RATE_LIMITS: 'business=100000' } });
  const { apiKey, accountId } = await h.account('business');
  const cases = generatedCases();
  assert.ok(cases.length > 150, `${cases.length} cases`);
  let n = 0;
  for (const c of cases) {
    const id = String(1900000000000080000n + BigInt(n++));
    h.upstream.setBody(c.target, id, forId(c, id));
    h.upstream.setFault(id, { status: 503 }, c.target === 'fxtwitter' ? 'syndication' : 'fxtwitter');
    for (const req of requestsFor(id, apiKey)) {
      const res = await h.app.inject(req);
      if (req.method === 'POST') {
        assert.equal(res.statusCode, 200, `${c.name} bulk: ${res.body.slice(0, 200)}`);
        const item = res.json().results[0];
        assert.equal(item.success, false, `${c.name} bulk: ${res.body.slice(0, 300)}`);
        assert.equal(item.error.code, 'upstream_unavailable', `${c.name} bulk`);
      } else {
        assert.equal(res.statusCode, 502, `${c.name} ${req.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        assert.equal(res.json().code, 'upstream_unavailable');
      }
    }
  }
  assert.equal(await used(h, accountId), 0, 'nothing was charged');
});

test('a malformed body from FxTwitter falls back to syndication: the post is delivered and charged once', async (t) => {
  const h = await build(t);
  const { apiKey, accountId } = await h.account('business');
  const issueCases = generatedCases().filter((c) => c.name.startsWith('issue:'));
  let n = 0;
  for (const c of issueCases) {
    const id = String(1900000000000090000n + BigInt(n++));
    h.upstream.setBody('fxtwitter', id, forId(c, id));
    h.upstream.setBody('syndication', id, fullSynBody(id));
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/content/${id}`, headers: { 'x-api-key': apiKey } });
    assert.equal(res.statusCode, 200, `${c.name}: ${res.body.slice(0, 200)}`);
    assert.match(res.body, /\*\*@dana\*\*/);
    assert.equal(h.upstream.count('syndication', id), 1, `${c.name}: syndication was asked`);
  }
  assert.equal(await used(h, accountId), issueCases.length);
});

// Values of the right type that no real post has: counts past every limit, dates at the edge of
// JavaScript's range shifted by a time zone, quotes nested thousands deep. Each is drawn.
test('extreme values render through every endpoint and format, never a 500', async (t) => {
  const h = await build(t, { env: { POSTSHOT_RATE_LIMITS: 'business=100000' } });
  const { apiKey } = await h.account('business');
  // A post whose quote holds a quote, and so on, as JSON text: JSON.stringify itself recurses and
  // overflows at this depth. The levels are bare, or the body would pass the size limit first.
  const nest = (base: object, key: string, depth: number): string =>
    `${JSON.stringify(base).slice(0, -1)},"${key}":${`{"${key}":`.repeat(depth)}{}${'}'.repeat(depth + 1)}`;
  const cases: Array<[string, 'fxtwitter' | 'syndication', (id: string) => unknown, string]> = [
    [
      'poll counts of 400 nines',
      'syndication',
      (id) => {
        const body = fullSynBody(id) as { card: { binding_values: Record<string, unknown> } };
        body.card.binding_values.choice1_count = { string_value: '9'.repeat(400) };
        return body;
      },
      '',
    ],
    [
      'counts of 1e308',
      'fxtwitter',
      (id) => {
        const body = fullFxBody(id);
        Object.assign(body.tweet, { likes: 1e308, views: 1e300, replies: -5 });
        return body;
      },
      '',
    ],
    [
      'the last date, 14 hours ahead',
      'fxtwitter',
      (id) => {
        const body = fullFxBody(id);
        body.tweet.created_timestamp = 8_640_000_000_000;
        return body;
      },
      '&timeZoneOffset=UTC%2B14',
    ],
    [
      'the first date, 14 hours behind',
      'syndication',
      (id) => ({ ...(fullSynBody(id) as object), created_at: '-271821-04-20T00:00:00.000Z' }),
      '&timeZoneOffset=UTC-14',
    ],
    // JSON may escape half a surrogate pair; encodeURIComponent throws on one (a mention's link).
    [
      'halves of surrogate pairs in the text, names and entities',
      'fxtwitter',
      (id) => {
        const body = fullFxBody(id);
        const raw = body.tweet.raw_text;
        raw.text = raw.text.replace('Hello', 'Hel\udc00\ud800');
        raw.facets[0].original = '@ja\ud800';
        raw.facets[1].original = '#ta\udc00';
        raw.facets[2].original = '$TS\ud83d';
        body.tweet.author.name = 'Da\ud800na';
        return body;
      },
      '',
    ],
    [
      'halves of surrogate pairs in the text, names and entities',
      'syndication',
      (id) => {
        const body = fullSynBody(id);
        body.text = body.text.replace('Hello', 'Hel\udc00\ud800');
        body.entities.user_mentions[0].screen_name = 'ja\ud800';
        body.entities.hashtags[0].text = 'ta\udc00';
        body.entities.symbols[0].text = 'TS\ud83d';
        body.user.name = 'Da\ud800na';
        return body;
      },
      '',
    ],
    [
      'quotes nested 10,000 deep',
      'syndication',
      (id) => {
        const { quoted_tweet: _, ...own } = fullSynBody(id);
        return Buffer.from(nest(own, 'quoted_tweet', 10_000));
      },
      '',
    ],
    [
      'quotes nested 10,000 deep',
      'fxtwitter',
      (id) => {
        const { tweet, ...rest } = fullFxBody(id);
        const { quote: _, ...own } = tweet;
        return Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"tweet":${nest(own, 'quote', 10_000)}}`);
      },
      '',
    ],
  ];
  let n = 0;
  for (const [name, target, bodyFor, query] of cases) {
    const id = String(1900000000000095000n + BigInt(n++));
    h.upstream.setBody(target, id, bodyFor(id));
    h.upstream.setFault(id, { status: 503 }, target === 'fxtwitter' ? 'syndication' : 'fxtwitter');
    for (const req of requestsFor(id, apiKey)) {
      const url = String(req.url).includes('/screenshot/') ? `${req.url}${query}` : String(req.url);
      const res = await h.app.inject({ ...req, url });
      assert.equal(res.statusCode, 200, `${name} (${target}) ${url}: ${res.body.slice(0, 300)}`);
      assert.doesNotMatch(res.body.slice(0, 200_000), /NaN|Infinity/, `${name} ${url}`);
    }
  }
});

// Entities found in the text were each checked against every entity before them: a body of a few
// hundred thousand mentions (and media links, on syndication) held the event loop for a minute.
test('a body of hundreds of thousands of mentions is read in linear time', async (t) => {
  const h = await build(t);
  const { apiKey } = await h.account('business');
  const mentions = '@a '.repeat(200_000);
  const fxId = '1900000000000096001';
  const synId = '1900000000000096002';
  const fx = fullFxBody(fxId);
  fx.tweet.raw_text = { text: mentions, display_text_range: [0, mentions.length], facets: [] };
  h.upstream.setBody('fxtwitter', fxId, fx);
  h.upstream.setFault(fxId, { status: 503 }, 'syndication');
  const { entities: _, ...syn } = fullSynBody(synId);
  // Media links over every other mention: each found mention was checked against all of them.
  const mediaDetails = Array.from({ length: 20_000 }, (_, i) => ({ indices: [i * 6, i * 6 + 2] }));
  h.upstream.setBody('syndication', synId, { ...syn, text: mentions, mediaDetails });
  h.upstream.setFault(synId, { status: 503 }, 'fxtwitter');
  for (const id of [fxId, synId]) {
    const started = Date.now();
    const res = await h.app.inject({
      url: `/api/v1/content/${id}?includeQuoted=false`,
      headers: { 'x-api-key': apiKey },
    });
    const took = Date.now() - started;
    assert.equal(res.statusCode, 200, `${id}: ${res.body.slice(0, 200)}`);
    assert.match(res.body, /\[@a\]\(https:\/\/x\.com\/a\)/);
    assert.ok(took < 8_000, `${id} took ${took} ms`);
  }
});

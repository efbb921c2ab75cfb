import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { renderMarkdown } from '../../src/markdown/render.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import type { Post } from '../../src/sources/post.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';

const MP4 = 'https://video.twimg.com/ext_tw_video/1/pu/vid/1280x720/clip.mp4';

function fxPost(media?: unknown[]): Post {
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: {
      id: '1950000000000000001',
      text: 'Neues Video! 🎬',
      author: { id: '1', name: 'Kiki', screen_name: 'kiki' },
      created_timestamp: 1776009600,
      ...(media ? { media: { all: media } } : {}),
    },
  });
  assert.equal(r.kind, 'found');
  return (r as { post: Post }).post;
}

function synPost(mediaDetails?: unknown[]): Post {
  const r = normalizeSyndication({
    __typename: 'Tweet',
    id_str: '1950000000000000001',
    text: 'Neues Video! 🎬',
    created_at: '2026-04-12T16:00:00.000Z',
    user: { id_str: '1', name: 'Kiki', screen_name: 'kiki' },
    ...(mediaDetails ? { mediaDetails } : {}),
  });
  assert.equal(r.kind, 'found', JSON.stringify(r));
  return (r as { post: Post }).post;
}

async function pngHeight(post: Post): Promise<number> {
  const bytes = (await renderCard(post, new Map(), { format: 'png', theme: 'light', scale: 1 })).bytes;
  return PNG.sync.read(bytes).height;
}

test('a video or GIF that comes without a poster still shows in the card and the Markdown', async () => {
  const cases: Array<[string, Post, Post]> = [
    ['FxTwitter video', fxPost([{ type: 'video', url: MP4, width: 1280, height: 720, duration: 12.3 }]), fxPost()],
    ['FxTwitter GIF', fxPost([{ type: 'gif', url: MP4, width: 480, height: 270 }]), fxPost()],
    [
      'syndication video',
      synPost([
        {
          type: 'video',
          original_info: { width: 1280, height: 720 },
          video_info: { duration_millis: 12300, variants: [{ bitrate: 832000, content_type: 'video/mp4', url: MP4 }] },
        },
      ]),
      synPost(),
    ],
  ];
  for (const [label, withVideo, without] of cases) {
    const tall = await pngHeight(withVideo);
    const short = await pngHeight(without);
    // A 16:9 tile in a 550 px card is some 280 px high.
    assert.ok(tall > short + 200, `${label}: the card is ${tall} px high, ${short} px without the video`);
    assert.match(renderMarkdown(withVideo), /\[(Video|GIF)\]\(https:\/\/video\.twimg\.com\/[^)]*clip\.mp4\)/, label);
  }
});

test('the HTML gives each photo and video poster its description as alt text, or what it is', async () => {
  const post = fxPost([
    {
      type: 'photo',
      url: 'https://pbs.twimg.com/media/A.jpg',
      width: 800,
      height: 600,
      altText: 'Sunset over the harbour',
    },
    { type: 'photo', url: 'https://pbs.twimg.com/media/B.jpg', width: 800, height: 600 },
    { type: 'video', url: MP4, thumbnail_url: 'https://pbs.twimg.com/media/C.jpg', width: 1280, height: 720 },
  ]);
  // The poster drawn: a 1x1 PNG stands in for it.
  const png = new PNG({ width: 1, height: 1 });
  const poster = { key: 'poster', mime: 'image/png' as const, bytes: PNG.sync.write(png) };
  const assets = new Map([['https://pbs.twimg.com/media/C.jpg', poster]]);
  const html = (await renderCard(post, assets, { format: 'html', theme: 'light' })).bytes.toString();
  const alts = [...html.matchAll(/<img [^>]*alt="([^"]+)"/g)].map((m) => m[1]).filter((a) => /\w/.test(a));
  assert.deepEqual(alts, ['Sunset over the harbour', 'Image', 'Video']);
});

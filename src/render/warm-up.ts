// Cards a new render worker draws before it takes traffic. A fresh worker's first card pays for
// loading the engine, registering the fonts it needs and indexing the emoji (~190 ms for the
// bench's text card in-process, against 5 ms once warm; docs/performance.md). Warm-up posts are
// written here with generated images: nothing is fetched and nothing depends on the samples folder.
import type { Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { ImagePrep } from './image-prep.ts';
import { prepareAssets } from './load-assets.ts';
import sharp from './sharp-setup.ts';
import { gradientRgb } from '../util/png-encode.ts';

export interface WarmUpCard {
  post: Post;
  assets: Assets;
}

const author = (handle: string, name: string, shape: 'circle' | 'square' = 'circle'): Post['author'] => ({
  name,
  handle,
  avatarUrl: `https://warm-up.invalid/${handle}.png`,
  verification: shape === 'square' ? 'business' : 'blue',
  avatarShape: shape,
});

const photo = (n: number, width = 1200, height = 800) => ({
  type: 'photo' as const,
  url: `https://warm-up.invalid/photo-${n}.jpg`,
  width,
  height,
});

function warmUpPosts(): Post[] {
  const base = {
    createdAt: '2026-01-02T03:04:05.000Z',
    lang: 'en',
    isNote: false,
    truncated: false,
    source: 'syndication' as const,
  };
  const text =
    'Warming up the renderer 🚀 with @postshot, #takumi and $PS: https://example.com\nSecond line, ünïcödé and emoji 👩🏽‍💻🇯🇵';
  const at = (needle: string) => {
    const start = Array.from(text.slice(0, text.indexOf(needle))).length;
    return { start, end: start + Array.from(needle).length };
  };
  const quoted: Post = {
    ...base,
    id: '2',
    url: 'https://x.com/quoted/status/2',
    author: author('quoted', 'Quoted Author'),
    text: 'The quoted post, with a photo.',
    entities: [],
    media: [photo(9)],
    counts: {},
  };
  return [
    {
      ...base,
      id: '1',
      url: 'https://x.com/warmup/status/1',
      author: author('warmup', 'Warm Up ✨'),
      text,
      entities: [
        { type: 'mention', ...at('@postshot'), handle: 'postshot' },
        { type: 'hashtag', ...at('#takumi'), tag: 'takumi' },
        { type: 'cashtag', ...at('$PS'), symbol: 'PS' },
        { type: 'url', ...at('https://example.com'), url: 'https://example.com', display: 'example.com' },
      ],
      media: [photo(1)],
      counts: { replies: 12, reposts: 345, likes: 6789, views: 123456 },
    },
    {
      ...base,
      id: '3',
      url: 'https://x.com/org/status/3',
      author: author('org', 'Organisation', 'square'),
      text: 'Four photos in a grid, and a quoted post.',
      entities: [],
      media: [photo(2), photo(3, 800, 1200), photo(4), photo(5, 1000, 1000)],
      quoted,
      counts: { likes: 5 },
    },
    {
      ...base,
      id: '4',
      url: 'https://x.com/warmup/status/4',
      author: author('warmup', 'Warm Up ✨'),
      text: 'A poll and a reply.',
      entities: [],
      media: [],
      replyTo: { handle: 'someone' },
      poll: {
        choices: [
          { label: 'Yes', votes: 3 },
          { label: 'No', votes: 1 },
        ],
        totalVotes: 4,
        final: true,
      },
      counts: {},
    },
  ];
}

/**
 * A gradient with soft circles, like the package's sample photos. Images must not be costly to
 * deflate: a textured one made each warm-up PNG a 2-4 MB file taking 240-320 ms, so 3 s of
 * warm-up drew 65 cards, most of that time in zlib rather than in the JavaScript being warmed.
 * Encoded by libvips off the event loop at a low level: the image is decoded again right away.
 */
function generatedImage(width: number, height: number, seed: number): Promise<Buffer> {
  const rgb = gradientRgb(width, height, [(seed * 70) % 256, 120, 200], [240, (seed * 40) % 256, 90]);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The warm-up cards with their images prepared for `scale`, as the real pipeline prepares them. */
export async function loadWarmUpCards(scale: number): Promise<WarmUpCard[]> {
  const prep = new ImagePrep(16 * 1024 * 1024);
  return Promise.all(
    warmUpPosts().map(async (post) => {
      let seed = 3;
      return { post, assets: await prepareAssets(post, scale, (_url, w, h) => generatedImage(w, h, seed++), prep) };
    }),
  );
}

// Regenerates the README's option pictures (docs/options/*.webp) from the sample posts:
// `node --import tsx scripts/readme-images.ts`. Open them after a change to the card.
import fs from 'node:fs';
import path from 'node:path';
import { layoutCard } from '../src/render/layout.ts';
import { loadAssets } from '../src/render/load-assets.ts';
import { parseOptions } from '../src/render/options.ts';
import { renderCard } from '../src/render/renderer.ts';
import { BackgroundImages } from '../src/render/background-image.ts';
import { startFixtureServer } from '../src/sources/fixture-server.ts';
import { MediaFetcher } from '../src/sources/media.ts';
import { normalizeFxTwitter } from '../src/sources/fxtwitter/normalize.ts';
import type { Post } from '../src/sources/post.ts';
import { normalizeSyndication } from '../src/sources/syndication/normalize.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const SAMPLES = path.join(REPO, 'samples');
const OUT = path.join(REPO, 'docs', 'options');

const TEXT = '1900000000000000014';
const PHOTOS = '1900000000000000008';
const LONG = '1900000000000000013';
const GRADIENT = 'linear-gradient(135deg, #ff5f6d 0%, #ffc371 100%)';

const PICTURES: Array<[string, string, Record<string, string>]> = [
  ['default', PHOTOS, {}],
  ['theme-dark', TEXT, { theme: 'dark' }],
  ['theme-dim', TEXT, { theme: 'dim' }],
  ['logo-bluebird', TEXT, { logo: 'bluebird' }],
  ['logo-none', TEXT, { logo: 'none' }],
  ['show-full-text-false', LONG, { showFullText: 'false' }],
  ['show-timestamp-false', TEXT, { showTimestamp: 'false' }],
  ['show-views-false', LONG, { showViews: 'false', showFullText: 'false' }],
  ['show-stats-false', TEXT, { showStats: 'false' }],
  ['show-media-false', PHOTOS, { showMedia: 'false' }],
  ['media-layout-vertical', '1900000000000000006', { mediaLayout: 'vertical', width: '360' }],
  ['aspect-ratio-4x5', PHOTOS, { aspectRatio: '4:5', containerBackground: GRADIENT }],
  ['aspect-ratio-16x9', TEXT, { aspectRatio: '16:9', containerBackground: '#1d9bf0' }],
  ['time-zone-offset', TEXT, { timeZoneOffset: 'UTC+5:30' }],
  ['width-320', PHOTOS, { width: '320' }],
  ['height-600', TEXT, { height: '600', containerBackground: '#e7ecf0' }],
  ['container-background', TEXT, { containerBackground: 'linear-gradient(90deg, #0f2027, #2c5364)', theme: 'dark' }],
  ['background-image', TEXT, { backgroundImage: 'https://pbs.twimg.com/media/PS4b.png', containerPadding: '48' }],
  ['border-radius-0', TEXT, { borderRadius: '0', containerBackground: '#cfd9de' }],
  ['container-padding-64', TEXT, { containerPadding: '64', containerBackground: '#ffc371' }],
];

function loadSample(id: string): Post {
  const fx = path.join(SAMPLES, 'upstream', 'fxtwitter', `${id}.json`);
  const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
  const parsed = fs.existsSync(fx)
    ? normalizeFxTwitter(200, read(fx))
    : normalizeSyndication(read(path.join(SAMPLES, 'upstream', 'syndication', `${id}.json`)));
  if (parsed.kind !== 'found') throw new Error(`sample ${id}: ${parsed.kind}`);
  return parsed.post;
}

const fixture = await startFixtureServer({ roots: [SAMPLES] });
try {
  const media = new MediaFetcher({
    mediaUrl: fixture.env.POSTSHOT_MEDIA_URL,
    timeoutMs: 5000,
    maxBytes: 8 << 20,
    clock: Date.now,
  });
  const backgrounds = new BackgroundImages({
    mediaUrl: fixture.env.POSTSHOT_MEDIA_URL,
    timeoutMs: 5000,
    maxBytes: 8 << 20,
  });
  fs.mkdirSync(OUT, { recursive: true });
  for (const [name, id, query] of PICTURES) {
    const post = loadSample(id);
    const options = parseOptions({ ...query, format: 'webp', scale: '1', quality: '82' });
    const assets = new Map(await loadAssets(post, media, 1, undefined, layoutCard(options)));
    if (options.backgroundImage) assets.set(options.backgroundImage, await backgrounds.load(options.backgroundImage));
    const out = await renderCard(post, assets, options);
    fs.writeFileSync(path.join(OUT, `${name}.webp`), out.bytes);
    console.log(`${name}.webp ${out.bytes.length} bytes`);
  }
} finally {
  await fixture.close();
}

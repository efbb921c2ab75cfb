import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { systemClock } from '../../src/clock.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { MediaFetcher } from '../../src/sources/media.ts';
import type { Post } from '../../src/sources/post.ts';
import { startFixtureServer, type FixtureServer } from '../../src/sources/fixture-server.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { readJson, SAMPLES_DIR, SHARED_FIXTURES } from '../fixtures.ts';

export function loadPost(root: string, id: string): Post {
  for (const kind of ['fxtwitter', 'syndication'] as const) {
    const file = path.join(root, 'upstream', kind, `${id}.json`);
    if (!fs.existsSync(file)) continue;
    const r = kind === 'fxtwitter' ? normalizeFxTwitter(200, readJson(file)) : normalizeSyndication(readJson(file));
    if (r.kind !== 'found') throw new Error(`${id}: ${r.kind}`);
    return r.post;
  }
  throw new Error(`no body for ${id} under ${root}`);
}

export async function mediaFromFixtures(): Promise<{ fixture: FixtureServer; media: MediaFetcher }> {
  const fixture = await startFixtureServer({ roots: [SAMPLES_DIR, SHARED_FIXTURES] });
  const media = new MediaFetcher({
    mediaUrl: fixture.env.POSTSHOT_MEDIA_URL,
    timeoutMs: 5000,
    maxBytes: 8 << 20,
    clock: systemClock,
  });
  return { fixture, media };
}

/** Share of pixels that differ beyond pixelmatch's colour threshold; 1 when sizes differ. */
export function pixelDifference(a: Buffer, b: Buffer): { ratio: number; diff: PNG } {
  const x = PNG.sync.read(a);
  const y = PNG.sync.read(b);
  const diff = new PNG({ width: x.width, height: x.height });
  if (x.width !== y.width || x.height !== y.height) return { ratio: 1, diff };
  const n = pixelmatch(x.data, y.data, diff.data, x.width, x.height, { threshold: 0.1 });
  return { ratio: n / (x.width * x.height), diff };
}

/** Share of pixels by which a PNG differs from resvg (a second SVG renderer) drawing the card's SVG output at 2x. */
export function differenceFromResvg(png: Buffer, svg: string): number {
  const reference = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
  return pixelDifference(png, reference).ratio;
}

export const OUTPUT_DIR = path.resolve(import.meta.dirname, '..', '.output');

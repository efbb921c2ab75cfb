import { after, before } from 'node:test';
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

/** A recorded post, normalized from the first of `kinds` that has its body. */
export function loadPost(
  root: string,
  id: string,
  kinds: ReadonlyArray<'fxtwitter' | 'syndication' | 'syndication-older-shape'> = ['fxtwitter', 'syndication'],
): Post {
  for (const kind of kinds) {
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

/**
 * The fixture server and a fetcher of its media, started before the file's tests and closed after
 * them; the returned function gives the fetcher.
 */
export function useFixtureMedia(): () => MediaFetcher {
  let started: { fixture: FixtureServer; media: MediaFetcher } | undefined;
  before(async () => {
    started = await mediaFromFixtures();
  });
  after(async () => {
    await started?.fixture.close();
  });
  return () => {
    if (!started) throw new Error('the fixture media start before the tests');
    return started.media;
  };
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

/**
 * The largest share of pixels in any 32 px square (half overlapping) that differ between two
 * PNGs of one size beyond a shift of a pixel: a glyph drawn wrong differs in one place, which a
 * share of the whole card hides, while a line laid a fraction of a pixel further differs along
 * every stroke and is not counted.
 */
export function worstSquare(a: Buffer, b: Buffer, size = 32): number {
  const x = PNG.sync.read(a);
  const y = PNG.sync.read(b);
  const { width, height } = x;
  const near = (from: PNG, at: number, to: PNG, cx: number, cy: number) => {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const px = cx + dx;
        const py = cy + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        const j = (py * width + px) * 4;
        let far = 0;
        for (let c = 0; c < 4; c++) far = Math.max(far, Math.abs(from.data[at + c] - to.data[j + c]));
        if (far <= 64) return true;
      }
    return false;
  };
  const differs = new Uint8Array(width * height);
  for (let py = 0; py < height; py++)
    for (let px = 0; px < width; px++) {
      const i = (py * width + px) * 4;
      differs[py * width + px] = near(x, i, y, px, py) && near(y, i, x, px, py) ? 0 : 1;
    }
  let worst = 0;
  for (let top = 0; top + size <= height; top += size / 2)
    for (let left = 0; left + size <= width; left += size / 2) {
      let count = 0;
      for (let py = top; py < top + size; py++)
        for (let px = left; px < left + size; px++) count += differs[py * width + px];
      worst = Math.max(worst, count / (size * size));
    }
  return worst;
}

/** Share of pixels by which a PNG differs from resvg (a second SVG renderer) drawing the card's SVG output at 2x. */
export function differenceFromResvg(png: Buffer, svg: string): number {
  const reference = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
  return pixelDifference(png, reference).ratio;
}

export const OUTPUT_DIR = path.resolve(import.meta.dirname, '..', '.output');

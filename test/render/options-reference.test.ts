import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { layoutCard } from '../../src/render/layout.ts';
import { loadAssets } from '../../src/render/load-assets.ts';
import { parseOptions } from '../../src/render/options.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { FixtureServer } from '../../src/sources/fixture-server.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost, mediaFromFixtures, OUTPUT_DIR, pixelDifference } from './support.ts';

// Reference renders of option combinations, at scale 1 to keep them small. After a deliberate
// change, regenerate with `UPDATE_SNAPSHOTS=1 node --import tsx --test test/render/options-reference.test.ts`
// and open every PNG: nothing cut, nothing overlapping, text never outside the card.
const SNAPSHOTS = path.resolve(import.meta.dirname, '__snapshots__');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const TOLERANCE = 0.002;
const GRADIENT = 'linear-gradient(135deg, #ff5f6d 0%, #ffc371 100%)';

const CASES: Array<{ name: string; id: string; query: Record<string, string>; border?: boolean }> = [
  {
    name: 'gradient-4x5',
    id: '1900000000000000006',
    query: { aspectRatio: '4:5', containerBackground: GRADIENT },
    border: true,
  },
  {
    name: 'square-no-stats',
    id: '1900000000000000011',
    query: { aspectRatio: '1:1', showStats: 'false', containerBackground: '#1d9bf0' },
    border: true,
  },
  { name: 'width-320-four-photos', id: '1900000000000000008', query: { width: '320' } },
  { name: 'vertical-three-photos', id: '1900000000000000007', query: { mediaLayout: 'vertical' } },
  {
    name: 'long-9x16',
    id: '1900000000000000013',
    query: { aspectRatio: '9:16', containerBackground: 'linear-gradient(180deg, #0f2027, #2c5364)' },
    border: true,
  },
];

let fixture: FixtureServer;
let media: MediaFetcher;
before(async () => ({ fixture, media } = await mediaFromFixtures()));
after(() => fixture.close());

/** True when no pixel of the outer `band` px of the canvas has the card's background colour. */
function bandFreeOf(img: PNG, band: number, card: number[]): boolean {
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      if (x >= band && x < img.width - band && y >= band && y < img.height - band) continue;
      const i = (y * img.width + x) * 4;
      if ([0, 1, 2].every((c) => Math.abs(img.data[i + c] - card[c]) <= 12)) return false;
    }
  return true;
}

for (const c of CASES) {
  for (const theme of ['light', 'dark'] as const) {
    test(`options reference: ${c.name} (${theme})`, async () => {
      const post = loadPost(SAMPLES_DIR, c.id);
      const options = parseOptions({ ...c.query, theme, format: 'png', scale: '1' });
      const assets = await loadAssets(post, media, 1, undefined, layoutCard(options));
      const png = (await renderCard(post, assets, options)).bytes;
      const img = PNG.sync.read(png);
      if (c.border) {
        // The padding band shows only the container: the card, scaled or not, is inside it.
        assert.ok(bandFreeOf(img, 12, theme === 'light' ? [255, 255, 255] : [0, 0, 0]), 'card inside the padding');
        // ...and the card is there: its background colour at the canvas centre line.
        const row = (img.height >> 1) * img.width * 4;
        let cardPixels = 0;
        for (let x = 0; x < img.width; x++) {
          const i = row + x * 4;
          if (
            theme === 'light'
              ? img.data[i] > 250 && img.data[i + 2] > 250
              : img.data[i] + img.data[i + 1] + img.data[i + 2] < 6
          )
            cardPixels++;
        }
        assert.ok(cardPixels > 20, `card drawn (${cardPixels} px)`);
      }
      const ref = path.join(SNAPSHOTS, `options-${c.name}-${theme}.png`);
      if (UPDATE) {
        fs.writeFileSync(ref, png);
        return;
      }
      assert.ok(fs.existsSync(ref), `missing reference ${ref}: run with UPDATE_SNAPSHOTS=1 and review it`);
      const { ratio, diff } = pixelDifference(png, fs.readFileSync(ref));
      if (ratio > TOLERANCE) {
        fs.mkdirSync(OUTPUT_DIR, { recursive: true });
        fs.writeFileSync(path.join(OUTPUT_DIR, `options-${c.name}-${theme}.actual.png`), png);
        fs.writeFileSync(path.join(OUTPUT_DIR, `options-${c.name}-${theme}.diff.png`), PNG.sync.write(diff));
      }
      assert.ok(ratio <= TOLERANCE, `${(ratio * 100).toFixed(2)}% of pixels differ from ${ref}`);
    });
  }
}

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { loadAssets } from '../../src/render/load-assets.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import type { FixtureServer } from '../../src/sources/fixture-server.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost, mediaFromFixtures, OUTPUT_DIR, pixelDifference } from './support.ts';

// Reference renders of the package's own sample posts. After a deliberate change to the card,
// regenerate with `UPDATE_SNAPSHOTS=1 npm test -- test/render/snapshot`, open the PNGs and
// check them by eye before committing.
const SNAPSHOTS = path.resolve(import.meta.dirname, '__snapshots__');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const TOLERANCE = 0.002;

const SAMPLES: Array<[string, string]> = [
  ['1900000000000000001', 'entities-emoji-zwj-flags'],
  ['1900000000000000002', 'arabic-rtl'],
  ['1900000000000000003', 'hebrew-rtl-mixed'],
  ['1900000000000000004', 'cjk'],
  ['1900000000000000005', 'thai-devanagari'],
  ['1900000000000000006', 'two-photos'],
  ['1900000000000000007', 'three-photos'],
  ['1900000000000000008', 'four-photos'],
  ['1900000000000000009', 'gif'],
  ['1900000000000000010', 'poll'],
  ['1900000000000000011', 'quote-with-media'],
  ['1900000000000000013', 'long-note'],
  ['1900000000000000014', 'reply'],
  ['1900000000000000015', 'video'],
  ['1900000000000000016', 'link-card'],
  ['1900000000000000017', 'hostile-text'],
];

let fixture: FixtureServer;
let media: MediaFetcher;
before(async () => ({ fixture, media } = await mediaFromFixtures()));
after(() => fixture.close());

for (const [id, name] of SAMPLES) {
  for (const theme of ['light', 'dark', 'dim'] as const) {
    test(`render matches reference: ${name} (${theme})`, async () => {
      const post = loadPost(SAMPLES_DIR, id);
      const assets = await loadAssets(post, media, 2);
      const png = (await renderCard(post, assets, { format: 'png', theme, scale: 2 })).bytes;
      const ref = path.join(SNAPSHOTS, `${name}-${theme}.png`);
      if (UPDATE) {
        fs.writeFileSync(ref, png);
        return;
      }
      assert.ok(fs.existsSync(ref), `missing reference ${ref}: run with UPDATE_SNAPSHOTS=1 and review it`);
      const { ratio, diff } = pixelDifference(png, fs.readFileSync(ref));
      if (ratio > TOLERANCE) {
        fs.mkdirSync(OUTPUT_DIR, { recursive: true });
        fs.writeFileSync(path.join(OUTPUT_DIR, `${name}-${theme}.actual.png`), png);
        fs.writeFileSync(path.join(OUTPUT_DIR, `${name}-${theme}.diff.png`), PNG.sync.write(diff));
      }
      assert.ok(ratio <= TOLERANCE, `${(ratio * 100).toFixed(3)}% of pixels differ (see test/.output)`);
    });
  }
}

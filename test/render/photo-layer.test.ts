import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { shareBytes, type PreparedImage } from '../../src/render/assets.ts';
import { loadAssets } from '../../src/render/load-assets.ts';
import { drawPhotos, liftMarker, takeMarkers } from '../../src/render/photo-layer.ts';
import { renderCard } from '../../src/render/renderer.ts';
import type { Post } from '../../src/sources/post.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { differenceFromResvg, loadPost, mediaFromFixtures } from './support.ts';

async function solidJpeg(
  key: string,
  width: number,
  height: number,
  rgb: [number, number, number],
): Promise<PreparedImage> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 100 })
    .toBuffer();
  return { key, mime: 'image/jpeg', bytes: shareBytes(bytes) };
}

const px = (buf: Buffer, width: number, x: number, y: number) => [
  ...buf.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
];

test('markers are read back by the photo they stand for, in whatever order the SVG has them, and removed', () => {
  const [m0, m1] = [liftMarker(0), liftMarker(1)];
  assert.notEqual(m0, m1);
  // Photo 1 painted before photo 0, as satori does when photo 0 sits in a positioned box.
  const svg = `<svg><rect x="0" y="0" width="10" height="10"/><image x="18" y="116" width="514" height="343" href="${m1}" preserveAspectRatio="none"/><image x="1" y="2" width="3" height="4" href="data:image/png;base64,AAAA"/><image x="20.5" y="30" width="40" height="50" href="${m0}" preserveAspectRatio="none"/></svg>`;
  const { svg: rest, boxes } = takeMarkers(svg);
  assert.deepEqual(boxes, [
    { x: 20.5, y: 30, width: 40, height: 50 },
    { x: 18, y: 116, width: 514, height: 343 },
  ]);
  assert.ok(!rest.includes(m0) && !rest.includes(m1));
  assert.ok(rest.includes('data:image/png;base64,AAAA'), 'other images stay');
  assert.throws(
    () => takeMarkers(`<image x="0" y="0" width="1" height="1" transform="rotate(3)" href="${m0}"/>`),
    /lifted photo drawn with effects/,
  );
  assert.throws(
    () => takeMarkers(`<image x="0" y="0" width="1" height="1" href="${m1}"/>`),
    /no marker for lifted photo 0/,
  );
  assert.throws(
    () =>
      takeMarkers(
        `<image x="0" y="0" width="1" height="1" href="${m0}"/><image x="0" y="0" width="1" height="1" href="${m0}"/>`,
      ),
    /laid out twice/,
  );
});

test('a lifted photo is copied into its box with rounded corners blended over what is below', async () => {
  const width = 120;
  const height = 90;
  // Below the photo: opaque white (premultiplied RGBA).
  const pixmap = Buffer.alloc(width * height * 4, 255);
  const photo = await solidJpeg('red', 80, 60, [200, 0, 0]);
  await drawPhotos(
    pixmap,
    width,
    height,
    [{ image: photo, radii: { tl: 5, br: 5 } }],
    [{ x: 10, y: 10, width: 40, height: 30 }],
    2,
  );
  // Box at 2x: x 20..100, y 20..80.
  const [r, g, b, a] = px(pixmap, width, 60, 50);
  assert.ok(Math.abs(r - 200) <= 3 && g <= 3 && b <= 3 && a === 255, `inside: ${[r, g, b, a]}`);
  assert.deepEqual(px(pixmap, width, 19, 50), [255, 255, 255, 255], 'left of the box untouched');
  assert.deepEqual(px(pixmap, width, 20, 20), [255, 255, 255, 255], 'rounded top-left corner shows what is below');
  assert.deepEqual(
    px(pixmap, width, 99, 20).slice(0, 1),
    [px(pixmap, width, 60, 50)[0]],
    'square top-right corner is photo',
  );
  assert.deepEqual(px(pixmap, width, 99, 79), [255, 255, 255, 255], 'rounded bottom-right corner shows what is below');
  // On the arc (tile pixel 1,5: 0.88 inside a 10 px radius): a blend of photo and white, opaque.
  const arc = px(pixmap, width, 21, 25);
  assert.ok(arc[1] > 20 && arc[1] < 235 && arc[3] === 255, `arc pixel blends: ${arc}`);
});

test('a photo partly outside the pixmap is clipped, and markers must match photos', async () => {
  const pixmap = Buffer.alloc(40 * 30 * 4);
  const photo = await solidJpeg('green', 40, 40, [0, 180, 0]);
  await drawPhotos(pixmap, 40, 30, [{ image: photo, radii: {} }], [{ x: 10, y: 5, width: 20, height: 20 }], 2);
  assert.deepEqual(px(pixmap, 40, 19, 9), [0, 0, 0, 0]);
  assert.ok(px(pixmap, 40, 39, 29)[1] > 170, 'bottom-right pixel of the pixmap is photo');
  await assert.rejects(
    drawPhotos(pixmap, 40, 30, [{ image: photo, radii: {} }], [], 2),
    /1 lifted photos but 0 markers/,
  );
});

test('a card whose photos are painted after a later avatar (photos above a quote) puts every photo in its own box', async (t) => {
  const { fixture, media } = await mediaFromFixtures();
  t.after(() => fixture.close());
  // Four photos above a quoted post: satori paints the quote's avatar before the positioned photo tiles.
  const post: Post = {
    ...loadPost(SAMPLES_DIR, '1900000000000000008'),
    quoted: loadPost(SAMPLES_DIR, '1900000000000000014'),
  };
  const assets = await loadAssets(post, media, 2);
  const png = (await renderCard(post, assets, { format: 'png', theme: 'light', scale: 2 })).bytes;
  const svg = (await renderCard(post, assets, { format: 'svg', theme: 'light', scale: 2 })).bytes.toString();
  const ratio = differenceFromResvg(png, svg);
  assert.ok(ratio < 0.005, `${(ratio * 100).toFixed(2)} % of pixels differ from resvg's drawing`);
});

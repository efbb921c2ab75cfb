import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { encodePng } from '../../src/render/png.ts';

/** A premultiplied RGBA pixmap: opaque inside, with translucent pixels along the border. */
function pixmap(width: number, height: number): { premultiplied: Buffer; straight: Buffer } {
  const premultiplied = Buffer.alloc(width * height * 4);
  const straight = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const edge = Math.min(x, y, width - 1 - x, height - 1 - y);
      const a = edge === 0 ? 0 : edge === 1 ? 64 : edge === 2 ? 200 : 255;
      const rgb = [(x * 7) % 256, (y * 13) % 256, ((x + y) * 5) % 256];
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        premultiplied[i + c] = Math.round((rgb[c] * a) / 255);
        // What a straight-alpha decoder must see: the premultiplied value scaled back up.
        straight[i + c] = a === 0 ? 0 : Math.min(255, Math.round((premultiplied[i + c] * 255) / a));
      }
      premultiplied[i + 3] = a;
      straight[i + 3] = a;
    }
  }
  return { premultiplied, straight };
}

test('PNG encoding un-premultiplies translucent pixels and keeps the rest exact, on this thread or off it', async () => {
  const { premultiplied, straight } = pixmap(61, 37);
  const decoded = PNG.sync.read(await encodePng(Buffer.from(premultiplied), 61, 37));
  assert.deepEqual([decoded.width, decoded.height], [61, 37]);
  assert.ok(Buffer.from(decoded.data).equals(straight), 'every pixel decodes to its straight-alpha value');
  // Two encodes at once off-thread: each has its own scanline buffer.
  const [a, b] = await Promise.all([
    encodePng(Buffer.from(premultiplied), 61, 37, { offThread: true }),
    encodePng(Buffer.from(premultiplied), 61, 37, { offThread: true }),
  ]);
  assert.ok(Buffer.from(PNG.sync.read(a).data).equals(straight) && Buffer.from(PNG.sync.read(b).data).equals(straight));
});

test('with an edge band, only pixels within the band are treated as translucent', async () => {
  const { premultiplied, straight } = pixmap(80, 50);
  // The fixture's translucency is 3 pixels deep: a band of 3 must give the exact same image.
  const decoded = PNG.sync.read(await encodePng(Buffer.from(premultiplied), 80, 50, { edge: 3 }));
  assert.ok(Buffer.from(decoded.data).equals(straight));
  // A band of 1 leaves the second and third rings premultiplied (darker): the band is honoured.
  const narrow = PNG.sync.read(await encodePng(Buffer.from(premultiplied), 80, 50, { edge: 1 }));
  assert.ok(!Buffer.from(narrow.data).equals(straight));
});

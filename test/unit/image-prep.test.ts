import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { test } from 'node:test';
import sharp from 'sharp';
import { ImagePrep } from '../../src/render/image-prep.ts';
import { gradientPng } from '../../src/util/png-encode.ts';

function crc(buf: Buffer): number {
  let c = -1;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ -1) >>> 0;
}

/** A tiny file that decodes to 8000×8000 pixels (64 MP): a decompression bomb in miniature. */
function bombPng(): Buffer {
  const side = 8000;
  const row = Buffer.alloc(1 + side / 8);
  const raw = Buffer.concat(Array.from({ length: side }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // 1-bit grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('images are resized to the drawn box; a pixel bomb or garbage is refused (placeholder)', async () => {
  const prep = new ImagePrep();
  const ok = await prep.prepare(gradientPng(300, 200, [10, 20, 30], [200, 100, 50]), 120, 80);
  assert.equal(ok?.mime, 'image/jpeg');
  const meta = await sharp(Buffer.from(ok!.bytes)).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 120, 80]);
  const bomb = bombPng();
  assert.ok(bomb.length < 200_000, `bomb is ${bomb.length} bytes`);
  assert.equal(await prep.prepare(bomb, 100, 100), null);
  assert.equal(await prep.prepare(Buffer.from('not an image'), 100, 100), null);
});

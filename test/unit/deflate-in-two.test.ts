import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { deflateSync, inflateSync } from 'node:zlib';
import { combineAdler32, deflateInTwo } from '../../src/util/deflate-in-two.ts';

const adlerOf = (b: Buffer) => {
  // A stored (level 0) zlib stream ends with the Adler-32 of its input.
  const z = deflateSync(b, { level: 0 });
  return z.readUInt32BE(z.length - 4);
};

function inputs(): Record<string, Buffer> {
  const mixed = Buffer.alloc(300_000);
  for (let i = 0; i < mixed.length; i++) mixed[i] = i % 1000 < 500 ? 255 : (i * 31) & 255;
  return { random: randomBytes(200_000), runs: Buffer.alloc(150_000, 7), mixed, tiny: Buffer.from('ab') };
}

test('Adler-32 of two parts combines to the Adler-32 of the whole', () => {
  for (const [name, buf] of Object.entries(inputs())) {
    for (const cut of [0, 1, Math.floor(buf.length / 3), buf.length - 1, buf.length]) {
      const combined = combineAdler32(adlerOf(buf.subarray(0, cut)), adlerOf(buf.subarray(cut)), buf.length - cut);
      assert.equal(combined, adlerOf(buf), `${name} cut at ${cut}`);
    }
  }
});

test('a stream deflated in two parts inflates, checksum and all, to the input', async () => {
  for (const [name, buf] of Object.entries(inputs())) {
    for (const cut of [1, Math.floor(buf.length / 2), buf.length - 1]) {
      const z = await deflateInTwo(buf, cut, { level: 3 });
      // inflate verifies the trailer: a wrong Adler-32 throws "incorrect data check".
      assert.ok(inflateSync(z).equals(buf), `${name} cut at ${cut}`);
    }
  }
  const buf = inputs().mixed;
  const z = await deflateInTwo(buf, 1000, { level: 3 });
  z[z.length - 1] ^= 1;
  assert.throws(() => inflateSync(z), /incorrect data check/);
});

test('cuts at the ends give a single stream', async () => {
  const buf = inputs().mixed;
  for (const cut of [0, buf.length]) assert.ok(inflateSync(await deflateInTwo(buf, cut, { level: 3 })).equals(buf));
});

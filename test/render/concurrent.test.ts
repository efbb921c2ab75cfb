import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Assets } from '../../src/render/assets.ts';
import { loadAssets } from '../../src/render/load-assets.ts';
import { RenderPool } from '../../src/render/pool.ts';
import { readRssMb } from '../../src/render/resident-memory.ts';
import { type RenderFormat, renderCard } from '../../src/render/renderer.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import type { MediaFetcher } from '../../src/sources/media.ts';
import type { Post } from '../../src/sources/post.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { CRAFTED_POSTS } from '../integration/crafted-posts.ts';
import { loadPost, mediaFromFixtures } from './support.ts';

/** Sample posts with their images, prepared for 2x as the service prepares them. */
function loadCards(media: MediaFetcher, ids: string[]): Promise<Array<{ post: Post; assets: Assets }>> {
  return Promise.all(
    ids.map(async (id) => {
      const post = loadPost(SAMPLES_DIR, id);
      return { post, assets: await loadAssets(post, media, 2) };
    }),
  );
}

test('cards drawn at once are byte for byte the cards drawn alone', async (t) => {
  const { fixture, media } = await mediaFromFixtures();
  t.after(() => fixture.close());
  const cards = await loadCards(media, ['1900000000000000018', '1900000000000000011', '1900000000000000014']);
  const draw = (i: number) =>
    renderCard(cards[i].post, cards[i].assets, { format: 'png', theme: 'dark', scale: 2 }).then((r) => r.bytes);
  const alone = [await draw(0), await draw(1), await draw(2)];
  const together = await Promise.all([draw(0), draw(1), draw(2), draw(0)]);
  for (const [i, png] of together.entries()) assert.ok(png.equals(alone[i % 3]), `card ${i % 3}`);
});

/** Draws the bench's four posts in `formats` in turn, two at a time in one render process: MB its RSS grew. */
async function growthOver(cardsToDraw: number, formats: RenderFormat[]): Promise<number> {
  const { fixture, media } = await mediaFromFixtures();
  const pool = new RenderPool(1, 60_000, undefined, { memoryMb: 8192, recycleMb: Number.POSITIVE_INFINITY });
  try {
    const cards = await loadCards(media, [
      '1900000000000000018',
      '1900000000000000008',
      '1900000000000000011',
      '1900000000000000014',
    ]);
    let next = 0;
    const draw = () => {
      const i = next++;
      const { post, assets } = cards[i % cards.length];
      const format = formats[Math.floor(i / cards.length) % formats.length];
      return pool.run(post, assets, { format, theme: 'light', scale: 2 });
    };
    // Two cards in the worker at all times, as under load.
    const drawMany = async (n: number) => {
      let left = n;
      const lane = async () => {
        while (left-- > 0) await draw();
      };
      await Promise.all([lane(), lane()]);
    };
    await drawMany(20);
    const [pid] = pool.pids();
    const rss = () => readRssMb(pid) ?? Number.NaN;
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
    try {
      await drawMany(cardsToDraw);
    } finally {
      // A failed card must not leave the sampler holding the test process open.
      clearInterval(sampler);
    }
    assert.deepEqual(pool.pids(), [pid], 'one render process drew every card');
    return peak - before;
  } finally {
    await pool.close();
    await fixture.close();
  }
}

test("a render process kept busy with PNG cards releases each card's pixmaps", async () => {
  // Each card's pixels are native buffers of several MB, freed only when V8 collects the objects
  // holding them, and a collection during a card can move some to the old generation. The process is never
  // replaced here (no recycling, no memory limit in reach), so what piles up shows.
  const grewMb = await growthOver(400, ['png']);
  // Without the worker's full collections the RSS grew 130-180 MB over these cards, against 35-45.
  assert.ok(grewMb < 80, `the render process's RSS grew by ${grewMb.toFixed(0)} MB over 400 cards`);
});

test('a render process drawing SVG, PNG and HTML cards in turn stays as bounded', async () => {
  // Vector cards skip the collection after each card that raster cards get; a raster card then
  // shares the process with them. Measured: 43-46 MB over these cards.
  const grewMb = await growthOver(600, ['svg', 'png', 'html']);
  assert.ok(grewMb < 80, `the render process's RSS grew by ${grewMb.toFixed(0)} MB over 600 cards`);
});

test("an idle render process gives a tall card's raster back at once, without being replaced", async (t) => {
  // The 25,000-character note as PNG is a raster of about 50 MB, and its encoding more; V8 would
  // free them at its next collection, which an idle process never starts by itself.
  const pool = new RenderPool(1, 60_000, undefined, { memoryMb: 8192, recycleMb: Number.POSITIVE_INFINITY });
  t.after(() => pool.close());
  const ordinary = loadPost(SAMPLES_DIR, '1900000000000000014');
  const r = normalizeFxTwitter(200, CRAFTED_POSTS.find((p) => p.name === 'a 25,000-character note')!.body);
  assert.equal(r.kind, 'found');
  const note = (r as { post: Post }).post;
  const draw = (post: Post) => pool.run(post, new Map(), { format: 'png', theme: 'light', scale: 2 });
  for (let i = 0; i < 4; i++) await draw(ordinary);
  const [pid] = pool.pids();
  const before = readRssMb(pid)!;
  const png = await draw(note);
  assert.ok(png.bytes.length > 5e6, 'a tall card');
  const deadline = Date.now() + 2000;
  let now = readRssMb(pid)!;
  // Issue #18's bound: back within 100 MB of the level before, within 2 s.
  while (now > before + 100 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = readRssMb(pid)!;
  }
  assert.deepEqual(pool.pids(), [pid], 'the same process');
  assert.ok(now <= before + 100, `RSS ${Math.round(before)} MB before the note, ${Math.round(now)} MB 2 s after it`);
});

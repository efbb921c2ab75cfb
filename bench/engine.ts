// npm run bench:engine: the render pipeline in-process, on the bench's posts, side by side: the
// engine's layout alone, its raster alone, PNG as served (raster + our deflate), the engine's own
// PNG, JPEG and WebP encoders, SVG, HTML, and the 25,000-character note. p50 over
// BENCH_ITERATIONS renders after a warm-up; no HTTP, no worker.
import path from 'node:path';
import { encodeRaster, measureCard, rasterize } from '../src/render/engine-takumi.ts';
import { loadAssets } from '../src/render/load-assets.ts';
import { buildCardTree, renderCard } from '../src/render/renderer.ts';
import type { Post } from '../src/sources/post.ts';
import { loadPost, mediaFromFixtures } from '../test/render/support.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const SAMPLES = path.join(REPO, 'samples');
const POSTS: Record<string, string> = {
  text: '1900000000000000014',
  '1-photo': '1900000000000000018',
  '4-photo': '1900000000000000008',
  quote: '1900000000000000011',
};
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);

async function p50(fn: () => Promise<unknown>, n = ITERATIONS): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)] * 10) / 10;
}

/** A note of 25,000 characters: paragraphs in several scripts, links and emoji. */
function longNote(base: Post): Post {
  const paragraph =
    'Long-form notes run to 25,000 characters. مرحبا بالعالم، هذا نص عربي. שלום עולם. 你好，世界。 สวัสดีชาวโลก 🚀🇯🇵 ';
  let text = '';
  while (text.length < 25_000) text += `${paragraph.repeat(4)}\n\n`;
  return { ...base, text: text.slice(0, 25_000), entities: [], media: [], isNote: true };
}

const { fixture, media } = await mediaFromFixtures();
const rows: string[] = [];
for (const [name, id] of Object.entries(POSTS)) {
  const post = loadPost(SAMPLES, id);
  const assets = await loadAssets(post, media, 2);
  const { tree, fonts } = buildCardTree(post, 'light', assets);
  const card = { tree, faces: fonts.faces, width: 550 };
  const cells = [
    await p50(() => measureCard(card)),
    await p50(() => rasterize(card, 2)),
    await p50(() => renderCard(post, assets, { format: 'png', theme: 'light', scale: 2 })),
    await p50(() => encodeRaster(card, 2, 'png')),
    await p50(() => encodeRaster(card, 2, 'jpeg')),
    await p50(() => encodeRaster(card, 2, 'webp')),
    await p50(() => renderCard(post, assets, { format: 'svg', theme: 'light' })),
    await p50(() => renderCard(post, assets, { format: 'html', theme: 'light' })),
  ];
  rows.push(`  ${name.padEnd(10)}${cells.map((c) => String(c).padEnd(11)).join('')}`);
}
const note = longNote(loadPost(SAMPLES, POSTS.text));
const notePng = await p50(() => renderCard(note, new Map(), { format: 'png', theme: 'light', scale: 2 }), 5);
const noteSvg = await p50(() => renderCard(note, new Map(), { format: 'svg', theme: 'light' }), 5);
await fixture.close();

console.log('\nrender pipeline in-process, ms (p50), 2x\n');
console.log('  post      layout     raster     PNG        engine PNG JPEG       WebP       SVG        HTML');
for (const r of rows) console.log(r);
console.log(`\n  25,000-character note: PNG ${notePng} ms, SVG ${noteSvg} ms`);

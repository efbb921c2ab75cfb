import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { MARKER, ORIGINAL, patchSatoriSource, satoriEntry } from '../../scripts/patch-satori.mjs';
import { makeGlyphPathWriter } from '../../scripts/satori-glyph-paths.mjs';
import { buildCardTree, treeToSvg } from '../../src/render/renderer.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost } from './support.ts';

type Cmd = { type: string; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number };
type Writer = (commands: Cmd[], x: number, y: number, scale: number, skew?: number) => string;

// satori's own writer, from the exact text the patch replaces.
const satoriWriter = new Function(
  `const nr=A=>(A<0?-Math.round(-A*10):Math.round(A*10))/10;${ORIGINAL};return fd;`,
)() as Writer;

/** Every point a path's commands visit, in absolute coordinates (relative commands resolved). */
function absolutePoints(d: string): number[][] {
  const tokens = d.match(/[MLQCZmlqcz]|-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
  const points: number[][] = [];
  const arity: Record<string, number> = { m: 1, l: 1, q: 2, c: 3, z: 0 };
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  let i = 0;
  while (i < tokens.length) {
    const op = tokens[i++];
    const lower = op.toLowerCase();
    const relative = op === lower;
    if (lower === 'z') {
      cx = sx;
      cy = sy;
      points.push(['z' as never]);
      continue;
    }
    const pairs: number[][] = [];
    for (let k = 0; k < arity[lower]; k++) {
      const x = Number(tokens[i++]);
      const y = Number(tokens[i++]);
      pairs.push(relative ? [cx + x, cy + y] : [x, y]);
    }
    for (const p of pairs) points.push(p);
    [cx, cy] = pairs[pairs.length - 1];
    if (lower === 'm') [sx, sy] = [cx, cy];
  }
  return points;
}

function randomOutline(random: () => number): Cmd[] {
  const r = () => Math.round((random() * 2000 - 500) * 100) / 100;
  const out: Cmd[] = [];
  for (let contour = 0; contour < 1 + Math.floor(random() * 3); contour++) {
    out.push({ type: 'M', x: r(), y: r() });
    for (let k = 0; k < 2 + Math.floor(random() * 6); k++) {
      const kind = ['L', 'Q', 'C'][Math.floor(random() * 3)];
      out.push({ type: kind, x: r(), y: r(), x1: r(), y1: r(), x2: r(), y2: r() });
    }
    // Some contours stay open: the next moveto is then relative to their last point.
    if (random() < 0.8) out.push({ type: 'Z' });
  }
  return out;
}

test('glyph paths written relative to the glyph put every point within 0.1 px of satori’s own', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const write = makeGlyphPathWriter(satoriWriter) as Writer;
  for (let n = 0; n < 300; n++) {
    const outline = randomOutline(random);
    const [x, y] = [random() * 1200 - 100, random() * 900];
    const scale = [15 / 1000, 20 / 2048, 0.0123][n % 3];
    const skew = n % 5 === 0 ? -0.25 : 0;
    const ours = absolutePoints(write(outline, x, y, scale, skew));
    const theirs = absolutePoints(satoriWriter(outline, x, y, scale, skew));
    assert.equal(ours.length, theirs.length);
    for (const [i, p] of ours.entries()) {
      if (p[0] === ('z' as never)) {
        assert.equal(theirs[i][0], 'z');
        continue;
      }
      assert.ok(
        Math.abs(p[0] - theirs[i][0]) <= 0.1 + 1e-9 && Math.abs(p[1] - theirs[i][1]) <= 0.1 + 1e-9,
        `point ${i} of outline ${n}: ${p} vs ${theirs[i]}`,
      );
    }
    // Placed again elsewhere, the cached outline moves with the glyph.
    const again = absolutePoints(write(outline, x + 33.3, y - 7, scale, skew));
    assert.ok(Math.abs((again[0][0] as number) - (ours[0][0] as number) - 33.3) <= 0.1 + 1e-9);
  }
  assert.equal(write([], 1, 2, 1), satoriWriter([], 1, 2, 1), 'an empty outline is satori’s');
  const noMove = [{ type: 'L', x: 1, y: 1 }];
  assert.equal(
    write(noMove, 5, 5, 1),
    satoriWriter(noMove, 5, 5, 1),
    'an outline without a leading moveto is left to satori',
  );
});

test('the installed satori carries the glyph-path patch, and patching is idempotent', () => {
  const installed = fs.readFileSync(satoriEntry(), 'utf8');
  assert.ok(installed.includes(MARKER), 'npm ci ran scripts/patch-satori.mjs (postinstall)');
  assert.equal(patchSatoriSource(installed).status, 'already');
  assert.equal(patchSatoriSource('export default 1').status, 'unknown');
  const fresh = patchSatoriSource(`var nr=0;${ORIGINAL}export{fd};`);
  assert.equal(fresh.status, 'patched');
  assert.equal(patchSatoriSource(fresh.source).status, 'already');
});

test('SVG text is drawn with glyph-relative path data', async () => {
  const post = loadPost(SAMPLES_DIR, '1900000000000000014');
  const svg = await treeToSvg(buildCardTree(post, 'light', new Map()));
  const textPaths = [...svg.matchAll(/<path fill="#0f1419" d="(M[^"]*)"/g)].map((m) => m[1]);
  assert.ok(textPaths.length > 0, 'the post text is a path');
  for (const d of textPaths) assert.match(d, /^M-?[\d.]+ -?[\d.]+[mlqcz]/);
});

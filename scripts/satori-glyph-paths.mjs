// The glyph-path writer that scripts/patch-satori.mjs puts into satori in place of its own.
//
// satori turns text into one SVG path per text node: for every glyph it walks the glyph's outline
// commands and writes each point as an absolute coordinate, offset to the glyph's position and
// rounded to 0.1 px. On a text card that was the largest single cost of an SVG render (15 % of
// satori's time, mostly number-to-string conversion), and it was repeated for every glyph of every
// render although a glyph's outline never changes.
//
// Written with relative commands, a glyph's outline does not depend on where the glyph sits: it is
// converted once per (outline, scale, skew) and each placement is one absolute moveto plus the
// cached string. Points are kept in integer tenths of a pixel, so the relative steps add up
// exactly: every point lands within 0.1 px of satori's own rounding (and the SVG is ~20 % smaller).
//
// This file is plain JavaScript because its source text is copied into satori's bundle:
// makeGlyphPathWriter must not refer to anything outside itself.

/**
 * @param {(commands: any[], x: number, y: number, scale: number, skew?: number) => string} fallback
 *   satori's own writer, for an outline that does not start with a moveto.
 * @returns {(commands: any[], x: number, y: number, scale: number, skew?: number) => string}
 */
export function makeGlyphPathWriter(fallback) {
  const MAX_ENTRIES = 100_000;
  let cache = new WeakMap();
  let entries = 0;
  // Tenths of a pixel, rounded half away from zero as satori rounds.
  const tenths = (v) => (v < 0 ? -Math.round(-v * 10) : Math.round(v * 10));

  function toRelative(commands, scale, skew) {
    const px = (x, y) => tenths((x + skew * y) * scale);
    const py = (y) => tenths(-y * scale);
    let cx = 0;
    let cy = 0;
    let sx = 0;
    let sy = 0;
    let first = null;
    let d = '';
    const step = (x, y) => `${(x - cx) / 10} ${(y - cy) / 10}`;
    for (const c of commands) {
      switch (c.type) {
        case 'M': {
          const x = px(c.x, c.y);
          const y = py(c.y);
          if (first) d += `m${step(x, y)}`;
          else first = { x, y };
          cx = sx = x;
          cy = sy = y;
          break;
        }
        case 'L': {
          const x = px(c.x, c.y);
          const y = py(c.y);
          d += `l${step(x, y)}`;
          cx = x;
          cy = y;
          break;
        }
        case 'Q': {
          const x = px(c.x, c.y);
          const y = py(c.y);
          d += `q${step(px(c.x1, c.y1), py(c.y1))} ${step(x, y)}`;
          cx = x;
          cy = y;
          break;
        }
        case 'C': {
          const x = px(c.x, c.y);
          const y = py(c.y);
          d += `c${step(px(c.x1, c.y1), py(c.y1))} ${step(px(c.x2, c.y2), py(c.y2))} ${step(x, y)}`;
          cx = x;
          cy = y;
          break;
        }
        case 'Z':
          // After a closepath the current point is the start of that subpath (SVG 1.1, 8.3.3).
          d += 'z';
          cx = sx;
          cy = sy;
          break;
      }
    }
    return { x: first.x, y: first.y, d };
  }

  return function writeGlyphPath(commands, x, y, scale, skew = 0) {
    if (commands.length === 0 || commands[0].type !== 'M') return fallback(commands, x, y, scale, skew);
    let byScale = cache.get(commands);
    if (!byScale) {
      // CJK text can touch tens of thousands of outlines: start over rather than grow without end.
      if (++entries > MAX_ENTRIES) {
        cache = new WeakMap();
        entries = 1;
      }
      byScale = new Map();
      cache.set(commands, byScale);
    }
    const key = `${scale}|${skew}`;
    let rel = byScale.get(key);
    if (!rel) {
      rel = toRelative(commands, scale, skew);
      byScale.set(key, rel);
    }
    return `M${(tenths(x) + rel.x) / 10} ${(tenths(y) + rel.y) / 10}${rel.d}`;
  };
}

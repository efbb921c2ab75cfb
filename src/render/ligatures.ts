// Letters the fonts draw as one glyph by default (their liga tables): Noto Sans's ff, fi, fl, ffi
// and ffl, Noto Sans Armenian's ու and its մ and վ pairs. A browser cuts a line for its ellipsis
// between glyphs, never inside one ("Off|ice" is cut "O…", not "Off…").
import { graphemes } from '../util/graphemes.ts';

const LIGATURE = /ff[il]?|f[il]|ու|ՈՒ|մ[եիխն]|վն/gu;

/** Whether the text holds a ligature: a line cut inside one would differ from a browser's. */
export const hasLigature = (text: string) => text.search(LIGATURE) >= 0;

/** The text's graphemes, those of one ligature taken together: the places a line may be cut. */
export function cutUnits(text: string): string[] {
  const ends = new Set<number>();
  const inside = new Set<number>();
  for (const m of text.matchAll(LIGATURE)) {
    for (let at = m.index + 1; at < m.index + m[0].length; at++) inside.add(at);
    ends.add(m.index + m[0].length);
  }
  const units: string[] = [];
  let at = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (inside.has(at) && units.length > 0) units[units.length - 1] += segment;
    else units.push(segment);
    at += segment.length;
  }
  return units;
}

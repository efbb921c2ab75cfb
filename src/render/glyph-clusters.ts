// Letters the fonts draw as one glyph, or as one cluster of glyphs. A browser cuts a line for its
// ellipsis between clusters, never inside one; the engine cut between letters ("Off…" for
// "O…", a Kannada conjunct drawn with its viramas: "ಸ್ತ್…").
import { graphemes } from '../util/graphemes.ts';

// Ligatures on by default (the fonts' liga tables): Noto Sans's ff, fi, fl, ffi and ffl, Noto Sans
// Armenian's ու and its մ and վ pairs, and Noto Sans Tamil's க்ஷ and ஸ்ரீ.
const LIGATURE = /ff[il]?|f[il]|ու|ՈՒ|մ[եիխն]|վն|க்ஷ|ஸ்ரீ/gu;

// A virama (or Khmer's coeng, Myanmar's stacker) before a consonant joins the two into a conjunct
// or a stack, one cluster. Intl.Segmenter already keeps Devanagari, Bengali, Gujarati, Odia,
// Telugu and Malayalam conjuncts in one grapheme; Sinhala joins them only after a ZWJ.
const JOINS_NEXT = /(?:[\u0ccd\u17d2\u1039\u1a60\u1b44\ua9c0]|\u0dca\u200d)$/u;
// A grapheme that begins with a mark belongs to the cluster before it: Intl.Segmenter leaves
// Myanmar's ာ and း alone, which the shaper draws in one cluster with their letter (ကြား).
const JOINS_PREVIOUS = /^\p{M}/u;

/**
 * Whether a line of the text could be cut inside a cluster of glyphs: it holds a ligature, or a
 * mark, which the engine's ellipsis may leave without its letter or its syllable (Myanmar ကြား).
 */
export const hasGlyphCluster = (text: string) => text.search(LIGATURE) >= 0 || /\p{M}/u.test(text);

/** The text's graphemes, those of one ligature or conjunct together: where a line may be cut. */
export function cutUnits(text: string): string[] {
  const inside = new Set<number>();
  for (const m of text.matchAll(LIGATURE)) for (let at = m.index + 1; at < m.index + m[0].length; at++) inside.add(at);
  const units: string[] = [];
  let at = 0;
  for (const { segment } of graphemes.segment(text)) {
    const last = units.length - 1;
    const joined =
      last >= 0 &&
      (inside.has(at) || JOINS_PREVIOUS.test(segment) || (JOINS_NEXT.test(units[last]) && /^\p{L}/u.test(segment)));
    if (joined) units[last] += segment;
    else units.push(segment);
    at += segment.length;
  }
  return units;
}

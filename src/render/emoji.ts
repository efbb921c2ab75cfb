// Emoji are Twemoji SVGs (npm @discordapp/twemoji, Emoji 16): the same picture in SVG, PNG and
// HTML, and never a glyph of a text font.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { hasGlyph } from './fonts.ts';
import type { ImageBytes } from './tree.ts';
import { graphemes } from '../util/graphemes.ts';

const require = createRequire(import.meta.url);
const DIR = path.join(path.dirname(require.resolve('@discordapp/twemoji/package.json')), 'dist', 'svg');
let available: Map<string, string> | null = null;
const cache = new Map<string, ImageBytes | null>();

const hexOf = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16)).join('-');

/**
 * Twemoji's files by their sequence without U+FE0F. Its names keep U+FE0F in some ZWJ sequences
 * (🏳️‍🌈 is 1f3f3-fe0f-200d-1f308), while posts carry every qualification of a sequence: fully,
 * minimally or not at all (🏳‍🌈), and each is to find the one picture.
 */
function filesByBareName(): Map<string, string> {
  if (!available) {
    available = new Map();
    for (const file of fs.readdirSync(DIR)) {
      if (!file.endsWith('.svg')) continue;
      const name = file.slice(0, -4);
      available.set(name.replace(/-fe0f/g, ''), name);
    }
  }
  return available;
}

/** Every sequence Twemoji ships, by its file name (hex code points joined by '-'). */
export function twemojiNames(): Set<string> {
  return new Set(filesByBareName().values());
}

/**
 * A picture whose view box is not square (🍉 is 36 × 25.22) made square around it: the engine
 * stretches an SVG to its box, where a browser keeps its proportions.
 */
function squareViewBox(svg: Buffer): Buffer {
  const text = svg.toString();
  const box = /viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"/.exec(text);
  if (!box) return svg;
  const [x, y, w, h] = box.slice(1).map(Number);
  if (w === h) return svg;
  const side = Math.max(w, h);
  const square = `viewBox="${x - (side - w) / 2} ${y - (side - h) / 2} ${side} ${side}"`;
  return Buffer.from(text.replace(box[0], square));
}

/** The Twemoji SVG for one grapheme, or null when Twemoji does not draw it. */
export function emojiImage(grapheme: string): ImageBytes | null {
  let image = cache.get(grapheme);
  if (image !== undefined) return image;
  const name = filesByBareName().get(hexOf(grapheme.replace(/[\ufe0e\ufe0f]/g, '')));
  image = name
    ? {
        key: `emoji:${name}`,
        mime: 'image/svg+xml',
        bytes: squareViewBox(fs.readFileSync(path.join(DIR, `${name}.svg`))),
      }
    : null;
  if (cache.size > 4000) cache.clear();
  cache.set(grapheme, image);
  return image;
}

const CANDIDATE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u20e3/u;
const MODIFIER = /\p{Emoji_Modifier}/u;
const FLAG_PAIR = /^\p{Regional_Indicator}{2}$/u;
const MODIFIER_SPLIT = /(\p{Emoji_Modifier})/u;
const PRIVATE_USE = /\p{Co}/u;
// Marks and a ZWNJ after an emoji join its grapheme (a ZWNJ beside an emoji is common in
// Persian): the emoji is drawn, the rest stays text. Not U+FE0E/FE0F or the keycap's mark.
const TRAILING_MARKS = /(?:\u200c|\u034f|(?![\ufe0e\ufe0f\u20e3])\p{M})+$/u;
const PRESENTATION = /\p{Emoji_Presentation}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u20e3|\ufe0f|\u200d/u;

/**
 * A lone symbol no text font has: a picture too. The ℹ of ℹ️, looked up alone when fonts are
 * chosen, then needs no font (text drawn alone turns it into its compatibility form first, text.ts).
 */
function isGlyphless(grapheme: string): boolean {
  return grapheme.length === 1 && !PRIVATE_USE.test(grapheme) && !hasGlyph(grapheme.codePointAt(0)!);
}

/**
 * Whether a grapheme is drawn as an emoji picture. Pictographs from U+1F000 on are emoji as on
 * X (🗺 without U+FE0F too); older symbols (© ™ ↔ ☺ ♥) stay text unless U+FE0F, a modifier or
 * a joiner asks for the emoji, or no text font draws them (ℹ). U+FE0E asks for text where a
 * text font draws the character (☺︎); where none does (🎉︎) the text would be a box: the picture.
 */
export function isEmoji(grapheme: string): boolean {
  if (!CANDIDATE.test(grapheme)) return false;
  const first = grapheme.codePointAt(0)!;
  if (grapheme.includes('\ufe0e') && hasGlyph(first)) return false;
  if (!(first >= 0x1f000 || PRESENTATION.test(grapheme) || isGlyphless(grapheme))) return false;
  return emojiImage(grapheme) !== null;
}

/** Splits text into plain runs and emoji graphemes (those Twemoji draws). */
export function splitEmoji(text: string): Array<{ emoji: boolean; text: string }> {
  if (!CANDIDATE.test(text)) return [{ emoji: false, text }];
  const out: Array<{ emoji: boolean; text: string }> = [];
  const push = (emoji: boolean, piece: string) => {
    const last = out.at(-1);
    if (!emoji && last && !last.emoji) last.text += piece;
    else out.push({ emoji, text: piece });
  };
  for (const { segment } of graphemes.segment(text)) {
    if (isEmoji(segment)) {
      push(true, segment);
      continue;
    }
    const marks = TRAILING_MARKS.exec(segment);
    if (marks && isEmoji(segment.slice(0, marks.index))) {
      push(true, segment.slice(0, marks.index));
      push(false, marks[0]);
    } else if (segment.includes('\u200d') && CANDIDATE.test(segment)) {
      // A sequence Twemoji does not draw (🐱‍👤, 😀‍😀, a chain of joiners) is drawn as its parts,
      // as X's Twemoji shows it, rather than as one box.
      for (const part of segment.split('\u200d')) {
        if (part) push(isEmoji(part), part);
      }
    } else if (FLAG_PAIR.test(segment)) {
      // Two regional indicators that name no flag Twemoji draws (🇽🇽, a region code withdrawn
      // or never assigned) are drawn as their two letters, as X's Twemoji shows them, not as boxes.
      for (const letter of segment) push(isEmoji(letter), letter);
    } else if (MODIFIER.test(segment)) {
      // A skin-tone swatch after anything but an emoji joins that grapheme: it is drawn on its own.
      for (const piece of segment.split(MODIFIER_SPLIT)) {
        if (piece) push(isEmoji(piece), piece);
      }
    } else {
      push(false, segment);
    }
  }
  return out;
}

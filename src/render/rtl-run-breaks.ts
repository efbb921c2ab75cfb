// Line breaks inside right-to-left runs of left-to-right paragraphs. The engine keeps a line's
// trailing space at the level of the run it ends (it skips UAX #9 rule L1), so when an Arabic or
// Hebrew run wraps in a left-to-right paragraph, the space moves in front of the run and another
// space of the run is drawn at no width: two of its words are glued. A browser hangs that space.
// A line ending in an image (an emoji) inside the run is drawn the same way. Such paragraphs are
// laid out once to learn where their lines end; each line that ends in spaces or an image of a
// right-to-left run then ends with a forced break instead, which draws the lines the browser
// draws. Only the engine's text is changed: the HTML keeps the post's text. In a right-to-left
// paragraph a line ending inside a left-to-right run that holds an image ("Good morning 👋") has
// the space before the image drawn after the run: such lines get the same forced break.
import bidiFactory from 'bidi-js';
import { MAYBE_RTL } from './text.ts';

const bidi = bidiFactory();
const ASTRAL = /[\u{10000}-\u{10ffff}]/gu;
/** A character of each bidi class, in the Basic Multilingual Plane. */
const OF_CLASS: Record<string, string> = {
  L: 'a',
  R: '\u05d0',
  AL: '\u0627',
  EN: '0',
  AN: '\u0660',
  NSM: '\u0300',
  BN: '\u200b',
};

/** The bidi class of a string's first code point ('L', 'R', 'AL', 'EN', 'WS', ...). */
export const bidiClass = (text: string) => bidi.getBidiCharTypeName(text);

/** Whether a character is a boundary neutral (UAX #9 class BN: ZWSP, joiners, soft hyphen...). */
export const isBoundaryNeutral = (ch: string) => bidi.getBidiCharTypeName(ch) === 'BN';

/**
 * The embedding levels of a paragraph, left to right unless told, one per UTF-16 unit. bidi-js
 * reads units, so a character beyond the BMP (Adlam, an emoji) is read as two of a BMP character
 * of its class.
 */
export function levelsOf(text: string, dir: 'ltr' | 'rtl' = 'ltr'): Uint8Array {
  return bidi.getEmbeddingLevels(readable(text), dir).levels;
}

const readable = (text: string) =>
  text.replace(ASTRAL, (ch) => (OF_CLASS[bidi.getBidiCharTypeName(ch)] ?? '!').repeat(2));

/**
 * The UTF-16 units of one line in the order they are drawn from its start edge (the left for a
 * left-to-right line, the right for a right-to-left one), by UAX #9's reordering, and their levels.
 */
export function drawnOrder(text: string, dir: 'ltr' | 'rtl'): { order: number[]; levels: Uint8Array } {
  const read = readable(text);
  const embedding = bidi.getEmbeddingLevels(read, dir);
  const leftToRight = bidi.getReorderedIndices(read, embedding);
  return { order: dir === 'rtl' ? leftToRight.reverse() : leftToRight, levels: embedding.levels };
}

/**
 * Explicit embeddings and overrides, and isolates open at a space (forced breaks go at spaces). A
 * forced break ends a paragraph, and with it every one of these still open: text after the break
 * would be ordered as if they were not there. An isolate closed before any space (a mention or
 * link in a right-to-left post, text.ts) is never open at a break.
 */
const EXPLICIT = /[\u202a-\u202e]|[\u2066-\u2068][^\u2069]*?[ \u3000]/;

/**
 * The spaces the engine glues words at: U+0020 and the ideographic space. It lays out a line
 * ending in a thin or an en space (U+2000-U+200A) as a browser does.
 */
const SPACE = '[ \u3000]';
const BREAKING_SPACES = new RegExp(SPACE);
const ALL_BREAKING_SPACES = new RegExp(SPACE, 'g');

/**
 * Whether a space of this left-to-right paragraph lies inside a right-to-left run (and its lines
 * can be ended with forced breaks: it holds no explicit embedding).
 */
export function hasSpaceInRtlRun(text: string): boolean {
  if (!MAYBE_RTL.test(text) || !BREAKING_SPACES.test(text) || EXPLICIT.test(text)) return false;
  const levels = levelsOf(text);
  for (const space of text.matchAll(ALL_BREAKING_SPACES)) if (levels[space.index] % 2 === 1) return true;
  return false;
}

/**
 * Whether this right-to-left paragraph (images as U+FFFC) holds an image inside a left-to-right
 * run: a line ending at that image is to end with a forced break (breakRtlRunLines).
 */
export function hasImageInLtrRun(text: string): boolean {
  if (!text.includes(OBJECT) || EXPLICIT.test(text)) return false;
  const levels = levelsOf(text, 'rtl');
  for (const image of text.matchAll(/\ufffc/g)) if (levels[image.index] % 2 === 0) return true;
  return false;
}

/**
 * Whether a space of this right-to-left paragraph lies inside a left-to-right run that spans
 * more than one of its pieces ("كأس Saudi @spagov", the mention a span of its own). A line the
 * engine ends inside such a run draws the space before the next piece at the run's far end,
 * gluing two words: such lines are to end with a forced break (breakRtlRunLines).
 */
export function hasSpaceInLtrRunOfPieces(pieces: Piece[]): boolean {
  if (pieces.filter((p) => !p.image).length < 2) return false;
  const text = pieces.map(textOf).join('');
  if (!BREAKING_SPACES.test(text) || EXPLICIT.test(text)) return false;
  const levels = levelsOf(text, 'rtl');
  // Where each piece starts: a run holds a boundary when a unit and the one before it are in it.
  const starts = new Set<number>();
  let at = 0;
  for (const piece of pieces) {
    starts.add(at);
    at += textOf(piece).length;
  }
  let runHasSpace = false;
  let runCrosses = false;
  for (let i = 0; i < text.length; i++) {
    if (levels[i] % 2 === 1) {
      runHasSpace = false;
      runCrosses = false;
      continue;
    }
    if (i > 0 && levels[i - 1] % 2 === 0 && starts.has(i)) runCrosses = true;
    if (BREAKING_SPACES.test(text[i])) runHasSpace = true;
    if (runHasSpace && runCrosses) return true;
  }
  return false;
}

/** A run of text as the engine laid it out (its MeasuredTextRun). */
export interface LaidRun {
  text: string;
  x?: number;
  y: number;
  width?: number;
  height: number;
}

/** A line as the engine laid it out: how many UTF-16 units of text it holds, its middle, its runs. */
export interface Line {
  length: number;
  middle: number;
  runs?: LaidRun[];
}

/**
 * The lines, from the runs in the order the engine gives them (line by line). A run whose middle
 * is more than half an em below the line's first run starts a line.
 */
export function linesOf(runs: LaidRun[], fontSize: number): Line[] {
  const lines: Line[] = [];
  for (const run of runs) {
    const middle = run.y + run.height / 2;
    if (lines.length === 0 || middle - lines[lines.length - 1].middle > fontSize / 2)
      lines.push({ length: 0, middle, runs: [] });
    lines[lines.length - 1].length += run.text.length;
    lines[lines.length - 1].runs?.push(run);
  }
  return lines;
}

/** The line whose middle is nearest. */
function nearestLine(lines: Line[], middle: number): number {
  let best = 0;
  for (let i = 1; i < lines.length; i++)
    if (Math.abs(lines[i].middle - middle) < Math.abs(lines[best].middle - middle)) best = i;
  return best;
}

/** The class of the last strong character before `from`: L, R or AL, or null at the start. */
function strongBefore(text: string, from: number): string | null {
  for (let i = from - 1; i >= 0; i--) {
    // The low half of a pair: read the pair.
    if (i > 0 && text.charCodeAt(i) >= 0xdc00 && text.charCodeAt(i) <= 0xdfff) i--;
    const type = bidi.getBidiCharTypeName(String.fromCodePoint(text.codePointAt(i)!));
    if (type === 'L' || type === 'R' || type === 'AL') return type;
  }
  return null;
}

/**
 * A piece of the paragraph, in logical order: a text node, whose text is rewritten in place, or an
 * inline image, which takes no place in the engine's runs and reads as U+FFFC (as in a browser).
 */
export type Piece = { text: string; image?: false } | { image: true };

const OBJECT = '\ufffc';
export const textOf = (piece: Piece) => (piece.image ? OBJECT : piece.text);

/** A paragraph's text, images as U+FFFC, and where each piece starts in it and in the runs' text. */
function joinPieces(pieces: Piece[]) {
  let text = '';
  let units = 0;
  const starts: Array<{ at: number; unit: number }> = [];
  for (const piece of pieces) {
    starts.push({ at: text.length, unit: units });
    text += textOf(piece);
    if (!piece.image) units += piece.text.length;
  }
  return { text, units, starts };
}

interface Cut {
  start: number;
  end: number;
  insert: string;
}

/**
 * Ends each line that ends in spaces of a right-to-left run with a forced break instead, and says
 * whether any did. A space there resolved right to left, so what is on both sides of the break
 * acts right to left on the neutrals beside it (a letter, or digits): an RLM on each side stands
 * for that. After Arabic letters it is an ALM, so that digits after the break stay Arabic numbers.
 * In a right-to-left paragraph (`dir`), the same for lines ending in a left-to-right run, with LRMs.
 */
export function breakRtlRunLines(
  pieces: Piece[],
  lines: Line[],
  imageMiddles: number[],
  dir: 'ltr' | 'rtl' = 'ltr',
): boolean {
  const { text, units, starts } = joinPieces(pieces);
  // Runs that do not add up to the text are not understood (collapsed spaces): left as it is.
  if (lines.reduce((sum, line) => sum + line.length, 0) !== units) return false;
  // The line of each image, by its index among the pieces; unknown when the engine's images are not
  // the paragraph's.
  const images = pieces.flatMap((p, i) => (p.image ? [i] : []));
  const lineOfImage = new Map<number, number>();
  if (imageMiddles.length === images.length)
    for (const [n, i] of images.entries()) lineOfImage.set(i, nearestLine(lines, imageMiddles[n]));
  const rtl = dir === 'rtl';
  const levels = levelsOf(text, dir);
  // Whether a unit is in a run of the other direction than the paragraph's.
  const against = (at: number) => levels[at] % 2 !== (rtl ? 1 : 0);
  const cuts: Cut[] = [];
  const cutAt = (start: number, end: number) => {
    if (rtl) return cuts.push({ start, end, insert: '\u200e\n\u200e' });
    const after = strongBefore(text, start) === 'AL' ? '\u061c' : '\u200f';
    cuts.push({ start, end, insert: `\u200f\n${after}` });
  };
  let unit = 0;
  let piece = 0;
  let next = 0;
  for (const [index, line] of lines.slice(0, -1).entries()) {
    unit += line.length;
    // The line's text ends in the text piece holding its last unit.
    for (; next < pieces.length && starts[next].unit < unit; next++) if (!pieces[next].image) piece = next;
    const end = starts[piece].at + unit - starts[piece].unit;
    // Images right after the line's text may end the line instead.
    let lastImage = -1;
    let i = next;
    for (; i < pieces.length && pieces[i].image && starts[i].unit === unit; i++) {
      const imageLine = lineOfImage.get(i);
      if (imageLine === undefined) lastImage = Number.NaN;
      else if (imageLine <= index) lastImage = i;
    }
    if (Number.isNaN(lastImage)) continue;
    if (lastImage >= 0) {
      // Ending in an image inside a right-to-left run, the line is drawn as if it ended in a space
      // there: it ends before the text after the images, when that text is their next piece.
      const at = starts[lastImage].at + 1;
      if (against(at - 1) && lastImage + 1 === i && i < pieces.length && !pieces[i].image) cutAt(at, at);
      continue;
    }
    let start = end;
    while (start > 0 && BREAKING_SPACES.test(text[start - 1])) start--;
    if (start < end && against(end - 1)) cutAt(start, end);
  }
  rewrite(pieces, cuts);
  return cuts.length > 0;
}

/** Replaces the ranges of the joined text; a range's insert goes where it starts. */
function rewrite(pieces: Piece[], cuts: Cut[]): void {
  const inserted = new Set<Cut>();
  // From the last, so that earlier offsets in a piece still hold.
  const fromLast = [...cuts].reverse();
  let offset = 0;
  for (const piece of pieces) {
    const from = offset;
    offset += textOf(piece).length;
    // A cut holds spaces only: never an image.
    if (piece.image) continue;
    for (const cut of fromLast) {
      const start = Math.max(cut.start, from) - from;
      const end = Math.min(cut.end, offset) - from;
      // A cut of no text inserts at the start of the first piece it is at; others, where they overlap.
      if (cut.start === cut.end ? cut.start !== from || inserted.has(cut) : start >= end) continue;
      inserted.add(cut);
      const insert = cut.start >= from ? cut.insert : '';
      piece.text = piece.text.slice(0, start) + insert + piece.text.slice(end);
    }
  }
}

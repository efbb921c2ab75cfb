// Line breaks inside right-to-left runs of left-to-right paragraphs. The engine keeps a line's
// trailing space at the level of the run it ends (it skips UAX #9 rule L1), so when an Arabic or
// Hebrew run wraps in a left-to-right paragraph, the space moves in front of the run and another
// space of the run is drawn at no width: two of its words are glued. A browser hangs that space.
// Such paragraphs are laid out once to learn where their lines end; each line that ends in spaces
// of a right-to-left run then ends with a forced break instead, which draws the lines the browser
// draws. Only the engine's text is changed: the HTML keeps the post's text.
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();
export const MAYBE_RTL = /[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
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

/**
 * The embedding levels of a paragraph, left to right unless told, one per UTF-16 unit. bidi-js reads units, so
 * a character beyond the BMP (Adlam, an emoji) is read as two of a BMP character of its class.
 */
export function levelsOf(text: string, dir: 'ltr' | 'rtl' = 'ltr'): Uint8Array {
  const read = text.replace(ASTRAL, (ch) => (OF_CLASS[bidi.getBidiCharTypeName(ch)] ?? '!').repeat(2));
  return bidi.getEmbeddingLevels(read, dir).levels;
}

/** Whether a space of this left-to-right paragraph lies inside a right-to-left run. */
export function hasSpaceInRtlRun(text: string): boolean {
  if (!MAYBE_RTL.test(text) || !text.includes(' ')) return false;
  const levels = levelsOf(text);
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) if (levels[i] % 2 === 1) return true;
  return false;
}

/** A run of text as the engine laid it out (its MeasuredTextRun). */
export interface LaidRun {
  text: string;
  y: number;
  height: number;
}

/**
 * How many UTF-16 units each line holds, from the runs in the order the engine gives them (line
 * by line). A run whose middle is more than half an em below the line's first run starts a line.
 */
export function lineLengths(runs: LaidRun[], fontSize: number): number[] {
  const lengths: number[] = [];
  let lineMiddle = 0;
  for (const run of runs) {
    const middle = run.y + run.height / 2;
    if (lengths.length === 0 || middle - lineMiddle > fontSize / 2) {
      lengths.push(0);
      lineMiddle = middle;
    }
    lengths[lengths.length - 1] += run.text.length;
  }
  return lengths;
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

/** Invisible marks of each strong class. */
const MARK: Record<string, string> = { L: '\u200e', R: '\u200f', AL: '\u061c' };

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
 * whether any did. Marks
 * around the break stand for what was across it: an RLM for the run that went on, and a mark of
 * the last strong letter's class (ALM after Arabic: digits after it stay Arabic), so punctuation
 * and digits beside the break keep the direction they had in the unbroken paragraph.
 */
export function breakRtlRunLines(pieces: Piece[], lengths: number[]): boolean {
  const { text, units, starts } = joinPieces(pieces);
  // Runs that do not add up to the text are not understood (collapsed spaces): left as it is.
  if (lengths.reduce((a, b) => a + b, 0) !== units) return false;
  const levels = levelsOf(text);
  const cuts: Cut[] = [];
  let unit = 0;
  let piece = 0;
  let next = 0;
  for (const length of lengths.slice(0, -1)) {
    unit += length;
    // The line ends after the text piece holding its last unit: an image after that piece may be
    // on either line, and is not taken for one of the line's trailing spaces.
    for (; next < pieces.length && starts[next].unit < unit; next++) if (!pieces[next].image) piece = next;
    const end = starts[piece].at + unit - starts[piece].unit;
    let start = end;
    while (start > 0 && text[start - 1] === ' ') start--;
    if (start === end || levels[end - 1] % 2 === 0) continue;
    const before = strongBefore(text, start);
    cuts.push({ start, end, insert: `\u200f\n${before ? MARK[before] : ''}` });
  }
  rewrite(pieces, cuts);
  return cuts.length > 0;
}

/** Replaces the ranges of the joined text; a range's insert goes where it starts. */
function rewrite(pieces: Piece[], cuts: Cut[]): void {
  let offset = 0;
  for (const piece of pieces) {
    const from = offset;
    offset += textOf(piece).length;
    // A cut holds spaces only: never an image.
    if (piece.image) continue;
    // From the last, so that earlier offsets in the piece still hold.
    for (const cut of [...cuts].reverse()) {
      const start = Math.max(cut.start, from) - from;
      const end = Math.min(cut.end, offset) - from;
      if (start >= end) continue;
      const insert = cut.start >= from ? cut.insert : '';
      piece.text = piece.text.slice(0, start) + insert + piece.text.slice(end);
    }
  }
}

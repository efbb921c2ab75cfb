// Soft hyphens (U+00AD) at line ends. A browser ends a line at one only when a hyphen fits there,
// and draws it; the engine ends lines there with no hyphen, whether one would fit or not. A
// paragraph holding one is laid out (as for rtl-run-breaks.ts), from its first line down: a line
// that ends at a soft hyphen gets a hyphen in its place when one fits, which keeps its words where
// they were; where none fits, that soft hyphen is taken out and the paragraph laid out again.
// Only the engine's text is changed: the HTML keeps the post's text.
import type { Line, Piece } from './rtl-run-breaks.ts';

const SOFT_HYPHEN = '\u00ad';

export const hasSoftHyphen = (text: string) => text.includes(SOFT_HYPHEN);

/**
 * The soft hyphens (UTF-16 unit offsets) ending the lines from the first down: those a hyphen fits
 * after, and the first one it does not, where the lines below would change.
 */
function lineEnds(lines: Line[], lineWidth: number, hyphenWidth: number) {
  const hyphens: number[] = [];
  let unit = 0;
  // The last line ends the paragraph, not at a break.
  for (const { length, runs = [] } of lines.slice(0, -1)) {
    unit += length;
    if (runs.at(-1)?.text.endsWith(SOFT_HYPHEN) !== true) continue;
    const left = Math.min(...runs.map((r) => r.x ?? 0));
    const right = Math.max(...runs.map((r) => (r.x ?? 0) + (r.width ?? 0)));
    if (right - left + hyphenWidth > lineWidth) return { hyphens, unfit: unit - 1 };
    hyphens.push(unit - 1);
  }
  return { hyphens, unfit: null };
}

/**
 * Puts a hyphen in place of each soft hyphen that ends a line with room for it, from the first line
 * down to one without room, whose soft hyphen is removed. True when the paragraph is to be laid out
 * again (one was removed). Lines whose text does not add up to the pieces' are left alone.
 */
export function hyphenateLineEnds(pieces: Piece[], lines: Line[], lineWidth: number, hyphenWidth: number): boolean {
  const texts = pieces.filter((p): p is { text: string } => !p.image);
  const units = texts.reduce((sum, p) => sum + p.text.length, 0);
  if (lines.reduce((sum, line) => sum + line.length, 0) !== units) return false;
  const { hyphens, unfit } = lineEnds(lines, lineWidth, hyphenWidth);
  // From the last, so that the offsets before stay where they were.
  const edits = [...hyphens.map((at) => ({ at, insert: '-' })), ...(unfit === null ? [] : [{ at: unfit, insert: '' }])];
  edits.sort((a, b) => b.at - a.at);
  let from = units;
  for (const piece of [...texts].reverse()) {
    const start = from - piece.text.length;
    for (const { at, insert } of edits)
      if (at >= start && at < from)
        piece.text = `${piece.text.slice(0, at - start)}${insert}${piece.text.slice(at - start + 1)}`;
    from = start;
  }
  return unfit !== null;
}

// Inline images (emoji) in bidirectional text. The engine gives an inline image the level of the
// character before it; a browser reads it as U+FFFC, a neutral, and resolves it by the text on
// both sides (UAX #9): in "والنجاح🎯 good" it draws 🎯 after the Arabic run, not inside it. A
// mark of the image's own direction just before it makes the engine agree; that mark splits no
// neutral run otherwise, as the run's other characters resolve to the same level. Only the
// engine's text gets it: the HTML keeps the post's text.
import { isBoundaryNeutral, levelsOf, type Piece, textOf } from './rtl-run-breaks.ts';
import { MAYBE_RTL } from './text.ts';

const LRM = '\u200e';
const RLM = '\u200f';

/** The marks the images of a paragraph need before them, by their index in `pieces`. */
export function imageMarks(pieces: Piece[], dir: 'ltr' | 'rtl'): Map<number, string> {
  const marks = new Map<number, string>();
  const text = pieces.map(textOf).join('');
  // Left-to-right text alone has no level but the paragraph's.
  if (!pieces.some((p) => p.image) || (dir === 'ltr' && !MAYBE_RTL.test(text))) return marks;
  const levels = levelsOf(text, dir);
  let at = 0;
  let before = dir === 'rtl' ? 1 : 0;
  pieces.forEach((piece, i) => {
    const own = textOf(piece);
    if (piece.image && levels[at] !== before) marks.set(i, levels[at] % 2 === 1 ? RLM : LRM);
    // The level of what comes before the next piece: its last unit that is not a boundary
    // neutral, or the image's mark. The algorithm sets those neutrals aside (bidi-js gives them
    // level 0); the engine gives them the level before them, as it does an image.
    for (let k = own.length - 1; k >= 0; k--) {
      if (isBoundaryNeutral(own[k])) continue;
      before = levels[at + k];
      break;
    }
    at += own.length;
  });
  return marks;
}

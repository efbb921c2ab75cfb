import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  breakRtlRunLines,
  hasImageInLtrRun,
  hasSpaceInLtrRunOfPieces,
  hasSpaceInRtlRun,
  linesOf,
  type Piece,
} from '../../src/render/rtl-run-breaks.ts';

test('an image inside a left-to-right run of a right-to-left paragraph is found', () => {
  assert.equal(hasImageInLtrRun('جميل Good morning \ufffc everyone'), true);
  assert.equal(hasImageInLtrRun('جميل \ufffc Good morning'), false, "between the directions: the paragraph's");
  assert.equal(hasImageInLtrRun('جميل Good morning everyone'), false);
  assert.equal(hasImageInLtrRun('جميل \u2066Good \ufffc morning\u2069'), false, 'an isolate a forced break would end');
});

test('a space inside a left-to-right run that spans two pieces of a right-to-left paragraph is found', () => {
  const pieces = (...texts: string[]): Piece[] => texts.map((text) => ({ text }));
  assert.equal(hasSpaceInLtrRunOfPieces(pieces('كأس Saudi ', '@spagov', ' 2222')), true);
  assert.equal(hasSpaceInLtrRunOfPieces(pieces('كأس ', '@spagov', ' كأس')), false, 'one Latin word: no space in it');
  assert.equal(hasSpaceInLtrRunOfPieces(pieces('كأس Saudi News 2222')), false, 'one text node');
  assert.equal(hasSpaceInLtrRunOfPieces(pieces('Saudi News ', 'كأس')), false, 'the edge is between the directions');
});

test('a space inside a right-to-left run of a left-to-right paragraph is found', () => {
  assert.equal(hasSpaceInRtlRun('Google هذا وصف'), true);
  // Between a bracket closing Arabic words and Arabic digits (which act as right-to-left there).
  assert.equal(hasSpaceInRtlRun('Done: والأخير (النهاية) ١٢٪ ok'), true);
  // The same bracket after a Latin word takes the paragraph's direction (UAX #9 N0).
  assert.equal(hasSpaceInRtlRun('Done (النهاية) ١٢٪ ok'), false);
  // Adlam lies beyond the BMP.
  assert.equal(hasSpaceInRtlRun('Hi 𞤀𞤢𞤤 𞤆𞤵𞤤'), true);
  assert.equal(hasSpaceInRtlRun('Google هذا'), false, 'one right-to-left word: its spaces are left-to-right');
  assert.equal(hasSpaceInRtlRun('Google هذا and وصف'), false);
  assert.equal(hasSpaceInRtlRun('plain English text'), false);
  // A forced break would end an override, embedding or isolate still open: such text is left as it is.
  for (const open of ['\u202e', '\u202b', '\u2067', '\u2068'])
    assert.equal(hasSpaceInRtlRun(`Hi ${open}هذا وصف طويل and more`), false, `U+${open.codePointAt(0)!.toString(16)}`);
});

test('runs are counted line by line, however far a script sits from its line', () => {
  const runs = [
    { text: 'Google ', y: 0, height: 27 },
    { text: 'جدا', y: -6, height: 42 },
    { text: ' ', y: 0, height: 27 },
    { text: 'هذا', y: -6, height: 42 },
    { text: 'للصفحة', y: 22, height: 42 },
    { text: 'end', y: 56, height: 27 },
  ];
  assert.deepEqual(
    linesOf(runs, 20).map((l) => l.length),
    [14, 6, 3],
  );
  assert.deepEqual(linesOf([], 20), []);
});

const joined = (pieces: Piece[]) => pieces.map((p) => (p.image ? '🖼' : p.text)).join('');
/** Lines of these lengths, 28 px apart. */
const lines = (...lengths: number[]) => lengths.map((length, i) => ({ length, middle: 14 + 28 * i }));

test('a line ending in a space of a right-to-left run ends in a forced break between marks', () => {
  const pieces = [{ text: 'Google هذا وصف ' }, { text: 'طويل جدا للصفحة' }];
  // "Google هذا وصف طويل جدا " | "للصفحة"
  assert.equal(breakRtlRunLines(pieces, lines(24, 6), []), true);
  assert.equal(joined(pieces), 'Google هذا وصف طويل جدا\u200f\n\u061cللصفحة');
  // Hebrew letters are R, not AL: the mark after the break is an RLM.
  const hebrew = [{ text: 'Hi שלום עולם' }];
  breakRtlRunLines(hebrew, lines(8, 4), []);
  assert.equal(joined(hebrew), 'Hi שלום\u200f\n\u200fעולם');
});

test('after digits that follow a left-to-right letter, the mark after the break is still an RLM', () => {
  // " ? % " lies between Arabic digits, which act right to left: so must the mark.
  const pieces = [{ text: 'Note 𰻞 ١٢٣ ? % ١٢٣ok' }];
  assert.equal(breakRtlRunLines(pieces, lines(14, 7), []), true);
  assert.equal(joined(pieces), 'Note 𰻞 ١٢٣ ?\u200f\n\u200f% ١٢٣ok');
});

test('spaces at a break are all taken, across pieces; other breaks are left alone', () => {
  const pieces = [{ text: 'Google هذا  ' }, { text: ' وصف more words' }];
  // "Google هذا   " | "وصف more " | "words"
  assert.equal(breakRtlRunLines(pieces, lines(13, 9, 5), []), true);
  assert.deepEqual(
    pieces.map((p) => p.text),
    ['Google هذا\u200f\n\u061c', 'وصف more words'],
  );
});

test('a line ending in an image inside a right-to-left run ends after it; an image on the next line moves with it', () => {
  const on = () => [{ text: 'Google هذا وصف ' }, { image: true as const }, { text: 'طويل جدا' }];
  // "Google هذا وصف " then the image: on line 0, the line ends with it; on line 1, it starts that.
  const ending = on();
  assert.equal(breakRtlRunLines(ending, lines(15, 8), [14]), true);
  assert.equal(joined(ending), 'Google هذا وصف 🖼\u200f\n\u061cطويل جدا');
  const starting = on();
  assert.equal(breakRtlRunLines(starting, lines(15, 8), [42]), true);
  assert.equal(joined(starting), 'Google هذا وصف\u200f\n\u061c🖼طويل جدا');
  // Images the engine did not report one for each: not known, so not cut.
  assert.equal(breakRtlRunLines(on(), lines(15, 8), []), false);
});

test('a break at a left-to-right space, or runs that do not add up, change nothing', () => {
  const ltr = [{ text: 'Google هذا more words' }];
  assert.equal(breakRtlRunLines(ltr, lines(11, 10), []), false);
  assert.equal(joined(ltr), 'Google هذا more words');
  const unknown = [{ text: 'Google هذا وصف طويل' }];
  assert.equal(breakRtlRunLines(unknown, lines(11, 3), []), false);
  assert.equal(joined(unknown), 'Google هذا وصف طويل');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breakRtlRunLines, hasSpaceInRtlRun, lineLengths } from '../../src/render/rtl-run-breaks.ts';

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
  assert.deepEqual(lineLengths(runs, 20), [14, 6, 3]);
  assert.deepEqual(lineLengths([], 20), []);
});

const joined = (pieces: Array<{ text: string }>) => pieces.map((p) => p.text).join('');

test('a line ending in a space of a right-to-left run ends in a forced break between marks', () => {
  const pieces = [{ text: 'Google هذا وصف ' }, { text: 'طويل جدا للصفحة' }];
  // "Google هذا وصف طويل جدا " | "للصفحة"
  assert.equal(breakRtlRunLines(pieces, [24, 6]), true);
  assert.equal(joined(pieces), 'Google هذا وصف طويل جدا\u200f\n\u061cللصفحة');
  // Hebrew letters are R, not AL: the mark after the break is an RLM.
  const hebrew = [{ text: 'Hi שלום עולם' }];
  breakRtlRunLines(hebrew, [8, 4]);
  assert.equal(joined(hebrew), 'Hi שלום\u200f\n\u200fעולם');
});

test('spaces at a break are all taken, across pieces; other breaks are left alone', () => {
  const pieces = [{ text: 'Google هذا  ' }, { text: ' وصف more words' }];
  // "Google هذا   " | "وصف more " | "words"
  assert.equal(breakRtlRunLines(pieces, [13, 9, 5]), true);
  assert.deepEqual(
    pieces.map((p) => p.text),
    ['Google هذا\u200f\n\u061c', 'وصف more words'],
  );
});

test('a break at a left-to-right space, or runs that do not add up, change nothing', () => {
  const ltr = [{ text: 'Google هذا more words' }];
  assert.equal(breakRtlRunLines(ltr, [11, 10]), false);
  assert.equal(joined(ltr), 'Google هذا more words');
  const unknown = [{ text: 'Google هذا وصف طويل' }];
  assert.equal(breakRtlRunLines(unknown, [11, 3]), false);
  assert.equal(joined(unknown), 'Google هذا وصف طويل');
});

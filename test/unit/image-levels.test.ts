import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageMarks } from '../../src/render/image-levels.ts';
import type { Piece } from '../../src/render/rtl-run-breaks.ts';

const IMAGE: Piece = { image: true };
const marks = (pieces: Piece[], dir: 'ltr' | 'rtl') => Object.fromEntries(imageMarks(pieces, dir));

test('an image between a right-to-left word and Latin takes the paragraph direction: an LRM', () => {
  assert.deepEqual(marks([{ text: 'Short: والنجاح' }, IMAGE, { text: ' good' }], 'ltr'), { 1: '\u200e' });
});

test('in a right-to-left paragraph, an image after Latin before Arabic gets an RLM', () => {
  assert.deepEqual(marks([{ text: 'مرحبا hello' }, IMAGE, { text: ' عالم' }], 'rtl'), { 1: '\u200f' });
});

test('an image at the level of the text before it needs nothing', () => {
  // Between two Arabic words, between Latin words, at the start, after a space.
  assert.deepEqual(marks([{ text: 'Hi الحب' }, IMAGE, { text: ' والسلام' }], 'ltr'), {});
  assert.deepEqual(marks([{ text: 'Hello' }, IMAGE, { text: ' world' }], 'ltr'), {});
  assert.deepEqual(marks([IMAGE, { text: ' العربية hello' }], 'ltr'), {});
  assert.deepEqual(marks([{ text: 'hello ' }, IMAGE, { text: 'العربية' }], 'ltr'), {});
});

test('images in a row after a right-to-left word: the first gets the mark, the rest follow it', () => {
  assert.deepEqual(marks([{ text: 'Hi والنجاح' }, IMAGE, IMAGE, { text: ' good' }], 'ltr'), { 1: '\u200e' });
});

test('a boundary neutral before the image (ZWSP, ZWNJ, word joiner, soft hyphen) does not hide the word before it', () => {
  for (const bn of ['\u200b', '\u200c', '\u2060', '\u00ad'])
    assert.deepEqual(
      marks([{ text: `Attached: صباح الخير${bn}` }, IMAGE, { text: ' good morning!' }], 'ltr'),
      { 1: '\u200e' },
      `U+${bn.codePointAt(0)!.toString(16)}`,
    );
});

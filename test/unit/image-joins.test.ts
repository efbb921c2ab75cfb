import assert from 'node:assert/strict';
import { test } from 'node:test';
import { separateImagesFromLetters } from '../../src/render/image-joins.ts';
import type { Piece } from '../../src/render/rtl-run-breaks.ts';

const texts = (pieces: Piece[]) => pieces.map((p) => (p.image ? '[img]' : p.text));

test('a ZWNJ goes between an image and a joining letter on either side, after its marks', () => {
  const pieces: Piece[] = [{ text: 'بيتٌ' }, { image: true }, { text: 'بيت' }, { image: true }, { text: 'ܫܠܡܐ' }];
  separateImagesFromLetters(pieces);
  assert.deepEqual(texts(pieces), ['بيتٌ\u200c', '[img]', '\u200cبيت\u200c', '[img]', '\u200cܫܠܡܐ']);
});

test('nothing changes beside spaces, Latin, Hebrew, digits or another image', () => {
  const pieces: Piece[] = [
    { text: 'بيت ' },
    { image: true },
    { image: true },
    { text: ' بيت hello' },
    { image: true },
    { text: 'שלום١٢' },
    { image: true },
  ];
  const before = texts(pieces);
  separateImagesFromLetters(pieces);
  assert.deepEqual(texts(pieces), before);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from '@takumi-rs/core';
import { joinedAtCut } from '../../src/render/engine-fits.ts';

const ZWJ = '\u200d';
const units = (text: string): Node[] => [...text].map((t) => ({ type: 'text', text: t }) as Node);
const kept = (text: string, n: number) =>
  joinedAtCut(units(text), n)
    .map((u) => (u.type === 'text' ? u.text : ''))
    .join('');

// A cut inside an Arabic word keeps its last letter joined, as in the whole line; where the line
// itself does not join it to what follows (a digit, a hamza, punctuation; anything after ر or ا,
// which join only the letter before them), the letter keeps its final form there, and a joiner would draw it joined to nothing (the cut no browser shows).
test('a cut letter is joined only to what it joins in the whole line', () => {
  assert.equal(kept('مكتبة', 4), `مكتب${ZWJ}`, 'inside a word');
  assert.equal(kept('علي١٢٣', 3), 'علي', 'before an Arabic-Indic digit');
  assert.equal(kept('علي۱۲۳', 3), 'علي', 'before an Extended Arabic-Indic digit');
  assert.equal(kept('شيء', 2), 'شي', 'before a hamza');
  assert.equal(kept('علي۔', 3), 'علي', 'before an Urdu full stop');
  assert.equal(kept('علي ب', 3), 'علي', 'before a space');
  assert.equal(kept('علـي', 2), `عل${ZWJ}`, 'before a tatweel');
  assert.equal(kept('عمرو', 3), 'عمر', 'after a letter that joins only the one before it');
  assert.equal(kept('داود', 2), 'دا', 'after an alef');
  assert.equal(kept('ܫܠܡܐ', 2), `ܫܠ${ZWJ}`, 'inside a Syriac word');
});

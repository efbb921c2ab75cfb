import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linesOf, type Piece } from '../../src/render/rtl-run-breaks.ts';
import { hyphenateLineEnds } from '../../src/render/soft-hyphens.ts';

// Runs as the engine lays out "Donau·dampf·schiff·fahrt" at 100 px (· a soft hyphen), 20 px a line.
const run = (text: string, x: number, line: number, width: number) => ({ text, x, y: line * 20, width, height: 20 });

test('a line ending at a soft hyphen with room for a hyphen shows one; the rest stay soft', () => {
  const pieces: Piece[] = [{ text: 'Donau\u00addampf\u00ad' }, { text: 'schiff\u00adfahrt' }];
  const runs = [
    run('Donau', 0, 0, 45),
    run('\u00ad', 45, 0, 0),
    run('dampf', 45, 0, 45),
    run('\u00ad', 90, 0, 0),
    run('schiff', 0, 1, 40),
    run('\u00ad', 40, 1, 0),
    run('fahrt', 40, 1, 40),
  ];
  const again = hyphenateLineEnds(pieces, linesOf(runs, 16), 100, 6);
  assert.equal(again, false, 'laid out once');
  assert.deepEqual(pieces, [{ text: 'Donau\u00addampf-' }, { text: 'schiff\u00adfahrt' }]);
});

test('a soft hyphen ending a line too full for a hyphen is taken out, to be laid out again', () => {
  const pieces: Piece[] = [{ text: 'ab\u00adcd ef\u00adgh\u00adij' }];
  const runs = [
    run('ab', 0, 0, 30),
    run('\u00ad', 30, 0, 0),
    run('cd', 30, 0, 30),
    run(' ', 60, 0, 5),
    run('ef', 65, 0, 30),
    run('\u00ad', 95, 0, 0),
    run('gh', 0, 1, 30),
    run('\u00ad', 30, 1, 0),
    run('ij', 0, 2, 30),
  ];
  // The first line ends 95 px in: a hyphen of 6 px does not fit in 100.
  assert.equal(hyphenateLineEnds(pieces, linesOf(runs, 16), 100, 6), true);
  assert.deepEqual(pieces, [{ text: 'ab\u00adcd efgh\u00adij' }], 'that one only: the lines below will move');
});

test('runs that do not add up to the text (collapsed spaces) leave it as it is', () => {
  const pieces: Piece[] = [{ text: 'ab\u00ad  cd' }];
  const runs = [run('ab', 0, 0, 30), run('\u00ad', 30, 0, 0), run(' cd', 0, 1, 30)];
  assert.equal(hyphenateLineEnds(pieces, linesOf(runs, 16), 100, 6), false);
  assert.deepEqual(pieces, [{ text: 'ab\u00ad  cd' }]);
});

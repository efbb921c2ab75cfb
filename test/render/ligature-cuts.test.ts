import { test } from 'node:test';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// A name cut for its ellipsis inside a ligature (ffi, fi, ff; Armenian ու): Chromium cuts before
// the ligature's glyph, "O…"; the engine cut between its letters and drew "Off…".
useChromium();

// One letter more or less at a name's end is a tenth of a 32 px square or more; the line drawn as
// Chromium draws it differs from it by a few hundredths at most.
const LETTER_IN_A_SQUARE = 0.1;

for (const [label, key, name, width] of [
  ['ffi', 'emoji', 'Chief Information Officer Office', 300],
  ['fi', 'emoji', 'Scientific Staffing Difficult', 300],
  ['ff', 'emoji', 'Office Office Office Office', 310],
  ['armenian', 'caucasus', 'Հայաստանի Հանրապետություն ქართული', 350],
] as const) {
  test(`a name is cut before a ligature, as in Chromium: ${label}`, async (t) => {
    const post = corpusPost(key, { name, text: 'Hello' });
    await assertHtmlMatchesPng(
      t,
      `ligature-cut-${label}`,
      post,
      new Map(),
      'light',
      { width },
      undefined,
      LETTER_IN_A_SQUARE,
    );
  });
}

import { test } from 'node:test';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// A name cut for its ellipsis inside a ligature (ffi, fi, ff; Armenian ու) or a syllable drawn as
// one cluster (a Kannada conjunct, Myanmar ကြား): Chromium cuts before the cluster, "O…"; the
// engine cut between its letters and drew "Off…", "ಸ್ತ್.." with its viramas, "ကြ…".
useChromium();

// One letter more or less at a name's end is a tenth of a 32 px square or more; the line drawn as
// Chromium draws it differs from it by a few hundredths at most.
const LETTER_IN_A_SQUARE = 0.1;

for (const [label, key, name, width] of [
  ['ffi', 'emoji', 'Chief Information Officer Office', 300],
  ['fi', 'emoji', 'Scientific Staffing Difficult', 300],
  ['ff', 'emoji', 'Office Office Office Office', 310],
  ['armenian', 'caucasus', 'Հայաստանի Հանրապետություն ქართული', 350],
  ['kannada', 'indic', 'ಕರ್ನಾಟಕ ರಾಷ್ಟ್ರೀಯ ಕ್ಷೇತ್ರ ಸ್ತ್ರೀ ಶಕ್ತಿ ಸಂಘ', 315],
  ['myanmar', 'indic', 'မြန်မာနိုင်ငံ သတင်းနှင့်ပြန်ကြားရေးဝန်ကြီးဌာန', 330],
  ['myanmar-asat', 'indic', 'မြန်မာနိုင်ငံ သတင်းနှင့်ပြန်ကြားရေးဝန်ကြီးဌာန', 300],
] as const) {
  test(`a name is cut before a ligature or a cluster, as in Chromium: ${label}`, async (t) => {
    const post = corpusPost(key, { name, text: 'Hello' });
    await assertHtmlMatchesPng(
      t,
      `cluster-cut-${label}`,
      post,
      new Map(),
      'light',
      { width },
      undefined,
      LETTER_IN_A_SQUARE,
    );
  });
}

// A quoted post's handle, cut for its ellipsis in what the name leaves it, is cut before a
// ligature too. The engine drew "@fififif…", Chromium "@fififi…": an "f" at 15 px is about a
// sixteenth of a 32 px square, so the bound is tighter here.
const LETTER_AT_15PX = 0.06;

test('a quoted post’s handle is cut before a ligature, as in Chromium', async (t) => {
  const post = corpusPost('emoji', { name: 'Dana', text: 'Probe', poll: undefined });
  const quoted = corpusPost('emoji', {
    name: 'Dana Doe Longname Longername Longestna',
    handle: 'fifififififififififi',
    text: 'q',
    poll: undefined,
  });
  await assertHtmlMatchesPng(
    t,
    'cluster-cut-quoted-handle',
    { ...post, quoted },
    new Map(),
    'light',
    { width: 360 },
    undefined,
    LETTER_AT_15PX,
  );
});

test('a card’s own handle is cut before a ligature, as in Chromium', async (t) => {
  const post = corpusPost('emoji', { name: 'Dana', handle: 'WWWWWWWWWWffiffiffif', text: 'Probe', poll: undefined });
  await assertHtmlMatchesPng(
    t,
    'cluster-cut-handle',
    post,
    new Map(),
    'light',
    { width: 300 },
    undefined,
    LETTER_AT_15PX,
  );
});

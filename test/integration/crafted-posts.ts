// Posts crafted to make a render as costly as it can be, as FxTwitter bodies, and a real-sized
// 25,000-character note. The runaway-render test and bench/render-memory.ts serve them through
// the fixture upstream.

const PARA =
  'Long posts on X can run to twenty-five thousand characters, and people use every one of them: ' +
  'threads folded into one post, essays, changelogs, transcripts. A renderer has to lay all of it out. ';

/** Prose of `chars` characters in paragraphs, as a long note reads. */
export function note(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += i % 4 === 3 ? `${PARA.trim()}\n\n` : PARA;
  return s.slice(0, chars);
}

function fxBody(id: string, text: string, extra: Record<string, unknown> = {}) {
  return {
    code: 200,
    tweet: {
      id,
      text,
      author: { name: 'Crafted', screen_name: 'crafted' },
      created_timestamp: 1700000000,
      is_note_tweet: true,
      ...extra,
    },
  };
}

export interface CraftedPost {
  name: string;
  id: string;
  body: unknown;
}

export const CRAFTED_POSTS: CraftedPost[] = [
  {
    name: '100,000 characters of text',
    id: '1900000000000040001',
    body: fxBody('1900000000000040001', 'x '.repeat(50_000)),
  },
  {
    name: 'a 5,000-choice poll',
    id: '1900000000000040002',
    body: fxBody('1900000000000040002', 'Pick one', {
      poll: { choices: Array.from({ length: 5000 }, (_, i) => ({ label: `choice ${i}`, count: i })), total_votes: 1 },
    }),
  },
  // X weighs an emoji 2: the 12,500 a note can hold are drawn, as are 12,500 of the ideographs below.
  {
    name: '20,000 emoji',
    id: '1900000000000040003',
    body: fxBody('1900000000000040003', '😀'.repeat(20_000)),
  },
  {
    name: '50,000 line breaks',
    id: '1900000000000040004',
    body: fxBody('1900000000000040004', `a${'\n'.repeat(50_000)}b`),
  },
  {
    name: 'a 25,000-character note',
    id: '1900000000000040005',
    body: fxBody('1900000000000040005', note(25_000)),
  },
  // A note of 25,000 different ideographs: every one is looked up among the CJK fonts' hundreds of
  // subsets, and hundreds of faces are loaded.
  {
    name: 'a note of 25,000 different ideographs',
    id: '1900000000000040008',
    body: fxBody(
      '1900000000000040008',
      Array.from({ length: 25_000 }, (_, i) =>
        String.fromCodePoint(i < 20_000 ? 0x4e00 + i : 0x3400 + i - 20_000),
      ).join(''),
      { lang: 'zh' },
    ),
  },
  // One character carrying every mark a note can hold, in the post and in its quote: the engine's
  // time grows with the square of a cluster's length.
  {
    name: '25,000 accents on one letter',
    id: '1900000000000040006',
    body: fxBody('1900000000000040006', `a${'\u0301'.repeat(24_999)}`, {
      quote: fxBody('1900000000000040007', `क${'\u0903'.repeat(24_999)}`).tweet,
    }),
  },
  // Small kana between Latin letters, in the post and its quote: a break before each kana in
  // text the engine lays out as one run, not thousands of spans.
  {
    name: '25,000 characters of small kana and Latin',
    id: '1900000000000040009',
    body: fxBody('1900000000000040009', 'ァa'.repeat(12_500), {
      quote: fxBody('1900000000000040010', 'ァa'.repeat(12_500)).tweet,
    }),
  },
  // A tab after every letter, in the post and its quote: each tab placed at its tab stop costs a
  // layout of the text before it.
  {
    name: '25,000 characters of letters and tabs',
    id: '1900000000000040011',
    body: fxBody('1900000000000040011', 'a\t'.repeat(12_500), {
      quote: fxBody('1900000000000040012', 'ש\t'.repeat(12_500)).tweet,
    }),
  },
];

// Break opportunities in the engine's text (only there: the HTML keeps the post's text). Scripts
// written without spaces between words: the engine finds no break opportunity in them, so word
// boundaries (Intl.Segmenter's dictionary, as the browser uses) get a zero-width space.
const NO_SPACES = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff]/;
const words = new Intl.Segmenter('th', { granularity: 'word' });
// Where such a script (Unicode's line-break class SA) meets an alphabetic letter or a digit of
// another, the engine breaks and a browser does not (UAX #14 reads the run's edges as letters).
// A combining grapheme joiner there keeps "เชียงใหม่Lanna" together, as Chromium does: an
// invisible mark, so it cleaves to the letter before it; the engine breaks at a word joiner there
// all the same. Ideographs, kana, Hangul and full-width forms may be broken around: left alone.
const SA = String.raw`[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]`;
const BREAKABLE = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\p{Script=Yi}\p{Script=Tangut}\p{Script=Nushu}\p{Script=Khitan_Small_Script}\u{ff00}-\u{ffef}]`;
const OTHER_WORD = String.raw`[[\p{L}\p{Nd}]--${SA}--${BREAKABLE}]`;
const HAS_SA = new RegExp(SA, 'v');
const SA_EDGE = new RegExp(`(?<=${SA})(?=${OTHER_WORD})|(?<=${OTHER_WORD})(?=${SA})`, 'gv');

/**
 * A zero-width space at each boundary between two words of NO_SPACES scripts; none before or
 * after punctuation (Khmer's ។ does not begin a line).
 */
function markWordBoundaries(text: string): string {
  let out = '';
  let previous: Intl.SegmentData | undefined;
  for (const current of words.segment(text)) {
    const between = current.isWordLike && previous?.isWordLike;
    if (between && NO_SPACES.test(previous!.segment.at(-1)!) && NO_SPACES.test(current.segment[0])) out += '\u200b';
    out += current.segment;
    previous = current;
  }
  return out;
}

// Sentence and clause marks of these scripts (Khmer ។ ៕, Myanmar ၊ ။) never begin a line, but the
// engine breaks before one after a word: the same joiner keeps it to the word.
const SA_STOP = /(?<=\S)(?=[\u17d4\u17d5\u104a\u104b])/g;

// Small kana and the prolonged sound mark (line-break class CJ): the engine never breaks before
// one, as CSS's strict line breaking does, where Chromium's default breaks as before any kana.
// The engine's word-break: break-all treats CJ as a kana, but in the whole paragraph it also breaks
// after "/" and inside "3-1" where a browser does not: it is for paragraphs of Japanese alone.
// Elsewhere a zero-width space gives the break, from another font than the kana around it, which
// costs the kerning of that pair (ティ): a line of katakana may come out a pixel or two wider.
const CJ = String.raw`[\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u308e\u3095\u3096\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u30ee\u30f5\u30f6\u30fc\u31f0-\u31ff\uff67-\uff70]`;
const HAS_CJ = new RegExp(CJ, 'u');
const BEFORE_CJ = new RegExp(
  String.raw`(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\uff70])(?=${CJ})`,
  'gu',
);
// What break-all breaks otherwise than a browser: letters and digits of other scripts, / and -.
const NOT_JAPANESE =
  /(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\uff70\uff9e\uff9f])[\p{L}\p{N}]|[/-]/u;

/** How a wrapping paragraph gets its breaks before small kana (see CJ above). */
export function kanaBreaks(paragraph: string): 'none' | 'break-all' | 'spaces' {
  if (!HAS_CJ.test(paragraph)) return 'none';
  return NOT_JAPANESE.test(paragraph) ? 'spaces' : 'break-all';
}

/** A zero-width space before each small kana or ー after a Japanese character. */
export function spaceBeforeKana(text: string): string {
  return HAS_CJ.test(text) ? text.replace(BEFORE_CJ, '\u200b') : text;
}

// Quotation marks between East Asian characters (UAX #14 since Unicode 15.1, rule LB19a; Chromium
// follows it): a line may end before an opening one or after a closing one there, where the
// engine's older rules keep them to both neighbours and a Chinese or Korean line ends a word early.
// The neighbours are letters of those scripts, or full-width punctuation a line may end after.
const OPENING = '[\\u00ab\\u2018\\u201b\\u201c\\u201f\\u2039]';
const CLOSING = '[\\u00bb\\u2019\\u201d\\u203a]';
const EA_LETTER = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Bopomofo}';
const EA_BEFORE = `[${EA_LETTER}\\u3001\\u3002\\u3009\\u300b\\u300d\\u300f\\u3011\\u3015\\uff01\\uff09\\uff0c\\uff0e\\uff1a\\uff1b\\uff1f]`;
const EA_AFTER = `[${EA_LETTER}\\u3008\\u300a\\u300c\\u300e\\u3010\\u3014\\uff08]`;
const HAS_QUOTE = /[\u00ab\u00bb\u2018\u2019\u201b\u201c\u201d\u201f\u2039\u203a]/;
const AROUND_QUOTE = new RegExp(
  `(?<=${EA_BEFORE})(?=${OPENING}${EA_AFTER})|(?<=${EA_BEFORE}${CLOSING})(?=${EA_AFTER})`,
  'gu',
);

const SA_LAST = new RegExp(`${SA}$`, 'v');
const SA_FIRST = new RegExp(`^${SA}`, 'v');
const OTHER_LAST = new RegExp(`${OTHER_WORD}$`, 'v');
const OTHER_FIRST = new RegExp(`^${OTHER_WORD}`, 'v');

/**
 * Whether two text nodes side by side meet at an SA_EDGE ("ที่" before a link's "th.example.com"):
 * insertWordBreaks sees one node at a time, so the joiner between them is given here.
 */
export function meetAtSaEdge(before: string, after: string): boolean {
  return (SA_LAST.test(before) && OTHER_FIRST.test(after)) || (OTHER_LAST.test(before) && SA_FIRST.test(after));
}

export function insertWordBreaks(raw: string): string {
  const text = HAS_QUOTE.test(raw) ? raw.replace(AROUND_QUOTE, '\u200b') : raw;
  if (!HAS_SA.test(text)) return text;
  const bounded = NO_SPACES.test(text) ? markWordBoundaries(text) : text;
  return bounded.replace(SA_EDGE, '\u034f').replace(SA_STOP, '\u034f');
}

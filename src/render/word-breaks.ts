// Break opportunities in the engine's text (only there: the HTML keeps the post's text). Scripts
// written without spaces between words: the engine finds no break opportunity in them, so word
// boundaries (Intl.Segmenter's dictionary, as the browser uses) get a zero-width space.
const NO_SPACES = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff]/;
const words = new Intl.Segmenter('th', { granularity: 'word' });
// Where a letter of such a script (line-break class SA) meets any other character, the engine
// breaks; a browser reads the SA letters as alphabetic (UAX #14) and keeps "พ.ศ.", "ปี๒๕๖๙",
// "เชียงใหม่Lanna" and "(ไทย)" whole. SA_JOINER there keeps them together, as Chromium does. Only
// where Chromium may break is none given: beside ideographs, kana, Hangul, emoji and flags, before
// a wide opening bracket or an em dash, and after a dash, a slash, !, ?, }, an ellipsis, a clause
// stop or a closing mark of East Asian text.
const SA = String.raw`[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]`;
const SA_LETTER = String.raw`[${SA}&&[\p{L}\p{M}]]`;
const EAST_ASIAN = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\p{Script=Yi}\p{Script=Tangut}\p{Script=Nushu}\p{Script=Khitan_Small_Script}\u{ff10}-\u{ff19}\u{ff21}-\u{ff3a}\u{ff41}-\u{ff5a}\p{Emoji_Presentation}\p{Regional_Indicator}]`;
const WIDE_OPENING = String.raw`[\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u3018\u301a\u301d\uff08\uff3b\uff5b\uff5f\uff62]`;
const WIDE_CLOSING = String.raw`[\u3001\u3002\u3009\u300b\u300d\u300f\u3011\u3015\u3017\u3019\u301b\u301e\u301f\uff01\uff09\uff0c\uff0e\uff1f\uff3d\uff5d\uff60\uff63]`;
const STOPS = String.raw`[\u0e5a\u0e5b\u104a\u104b\u17d4\u17d5\u17d8\u17da]`;
// Any character drawn, no-break spaces included.
const OTHER = String.raw`[[[^\s\p{M}\p{Cf}\p{Cc}\p{Z}][\u00a0\u2007\u202f]]--${SA_LETTER}]`;
const JOINS_AFTER_SA = String.raw`[${OTHER}--${EAST_ASIAN}--${WIDE_OPENING}--[\u2014]]`;
const JOINS_BEFORE_SA = String.raw`[${OTHER}--${EAST_ASIAN}--${WIDE_CLOSING}--${STOPS}--[!?\}\-\u2010-\u2014\/\|\u2025\u2026]]`;
const HAS_SA = new RegExp(SA_LETTER, 'v');
const SA_EDGE_AT = String.raw`(?<=${SA_LETTER})(?=${JOINS_AFTER_SA})|(?<=${JOINS_BEFORE_SA})(?=${SA_LETTER})`;
const SA_EDGE = new RegExp(SA_EDGE_AT, 'gv');
const SA_EDGE_ONCE = new RegExp(SA_EDGE_AT, 'v');
/**
 * An invisible mark of no script (VS17), so it cleaves to the character before it and leaves the
 * engine's run of SA letters unbroken (a word joiner or a Mongolian selector breaks it all the
 * same). No shipped face has it: the engine draws a grapheme from the first face with any of its
 * characters, and with the combining grapheme joiner, which Noto Sans whole has, a Thai letter
 * before ‰ became a box.
 */
export const SA_JOINER = '\u{e0100}';

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

/**
 * Whether two text nodes side by side meet at an SA_EDGE ("ที่" before a link's "th.example.com"):
 * insertWordBreaks sees one node at a time, so the joiner between them is given here.
 */
export function meetAtSaEdge(before: string, after: string): boolean {
  const last = before.length > 1 && /[\udc00-\udfff]/.test(before.at(-1)!) ? before.slice(-2) : before.slice(-1);
  const first = String.fromCodePoint(after.codePointAt(0) ?? 32);
  return SA_EDGE_ONCE.test(last + first);
}

export function insertWordBreaks(raw: string): string {
  const text = HAS_QUOTE.test(raw) ? raw.replace(AROUND_QUOTE, '\u200b') : raw;
  if (!HAS_SA.test(text)) return text;
  const bounded = NO_SPACES.test(text) ? markWordBoundaries(text) : text;
  return bounded.replace(SA_EDGE, SA_JOINER);
}

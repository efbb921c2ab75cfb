// Post text as card elements: one block per paragraph, with its own direction, entity runs as
// inline spans and emoji as inline Twemoji images. Shaping, bidi ordering and line breaking are
// the layout engine's (and the browser's, for HTML): nothing here reorders or measures text.
import bidiFactory from 'bidi-js';
import { entityUrl, segmentText, type Post } from '../sources/post.ts';
import { openLongArabicWords } from './arabic-breaks.ts';
import { emojiImage, splitEmoji } from './emoji.ts';
import { hasGlyph, marksJoin } from './fonts.ts';
import { hasGlyphCluster } from './glyph-clusters.ts';
import { entitySpan, textBlock, type Child, type El, type Style } from './tree.ts';

const bidi = bidiFactory();
// Right-to-left blocks, and RLM (U+200F), a strong right-to-left character of its own.
export const MAYBE_RTL = /[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * The direction of a paragraph from its first strong character outside isolates (UAX #9 P2-P3,
 * as `dir=auto` does); `fallback` when it has none (digits, punctuation, emoji only). Read per
 * code point: bidi-js's embedding levels read UTF-16 units, so Adlam (U+1E900) came out LTR.
 */
export function directionOf(text: string, fallback: 'ltr' | 'rtl' = 'ltr'): 'ltr' | 'rtl' {
  if (!MAYBE_RTL.test(text)) return /\p{L}/u.test(text) ? 'ltr' : fallback;
  let isolates = 0;
  for (const ch of text) {
    const type = bidi.getBidiCharTypeName(ch);
    if (type === 'LRI' || type === 'RLI' || type === 'FSI') isolates++;
    else if (type === 'PDI') isolates = Math.max(0, isolates - 1);
    else if (isolates === 0 && type === 'L') return 'ltr';
    else if (isolates === 0 && (type === 'R' || type === 'AL')) return 'rtl';
  }
  return fallback;
}

// The half-width (semi-)voiced marks (ｹﾞ) join the grapheme before them but are drawn on their
// own. The CJK packages' subsets put a mark and the kana before it in different files, and a
// browser and the engine draw a grapheme from one font: a word joiner makes it a grapheme alone.
const DRAWN_APART = /(?<=[^\s\u2060])(?=[\uff9e\uff9f])/gu;
// So is a mark that no subset file of the CJK character before it has (fonts.ts, marksJoin); not
// a variation selector, which asks for the character's emoji or text form (〰️).
const MARK_ON_CJK =
  /([\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}])((?!\p{Variation_Selector})\p{M})/gu;

// Half of a surrogate pair without its other half (a source's JSON may cut one off): drawn as
// U+FFFD, as the HTML's UTF-8 and the engine make of it, and not reported as a missing glyph.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as drawn: composed (NFC: text pasted from macOS arrives decomposed, and a base letter and
 * its mark then come from one font), a lone surrogate as U+FFFD, without U+FEFF (a byte-order
 * mark, invisible on X), marks drawn apart from their grapheme (DRAWN_APART), and a character no
 * font draws replaced by its compatibility form when fonts draw that (a CJK compatibility
 * ideograph by its unified form).
 */
export function cleanText(text: string): string {
  const composed = text
    .replace(LONE_SURROGATE, '\ufffd')
    .normalize('NFC')
    .replace(/\ufeff/g, '')
    .replace(DRAWN_APART, '\u2060')
    .replace(MARK_ON_CJK, (pair, base: string, mark: string) =>
      marksJoin(base.codePointAt(0)!, mark.codePointAt(0)!) ? pair : `${base}\u2060${mark}`,
    );
  return BEYOND_PUNCTUATION.test(composed)
    ? composed.replace(BEYOND_PUNCTUATION_ALL, (ch, emoji?: string) => (emoji ? ch : substitute(ch)))
    : composed;
}

// Characters whose compatibility form is worth drawing instead (fractions, ligatures, full-width
// forms) lie from U+2001 on: only those are looked up, and not when U+FE0F asks for an emoji (ℹ️).
const BEYOND_PUNCTUATION = /[\u2001-\u{10ffff}]/u;
const BEYOND_PUNCTUATION_ALL = /[\u2001-\u{10ffff}](?=(\ufe0f)?)/gu;
const substitutes = new Map<string, string>();

function substitute(ch: string): string {
  let out = substitutes.get(ch);
  if (out === undefined) {
    const compatible = ch.normalize('NFKC');
    const drawable = (s: string) => [...s].every((c) => hasGlyph(c.codePointAt(0)!));
    out = compatible !== ch && !drawable(ch) && drawable(compatible) ? compatible : ch;
    substitutes.set(ch, out);
  }
  return out;
}

/** An emoji as an inline image the size of the text around it (X: 1.2em, lowered by a fifth). */
export function emojiEl(grapheme: string): El | null {
  const image = emojiImage(grapheme);
  if (!image) return null;
  return {
    type: 'img',
    props: {
      image,
      alt: grapheme,
      style: {
        display: 'inline-block',
        width: '1.2em',
        height: '1.2em',
        margin: '0 0.075em',
        verticalAlign: '-0.25em',
      },
    },
  };
}

/** Plain text and emoji images, in order: the children of a run of inline text. */
export function inlineText(text: string): Child[] {
  return splitEmoji(cleanText(text)).map((part) => (part.emoji ? (emojiEl(part.text) ?? part.text) : part.text));
}

const CLIP_SLACK = 8;

/**
 * One line of text that never wraps and ends in an ellipsis when it does not fit. The clip that
 * the ellipsis needs reaches 8px above and below the line: marks outside the line box (the dots
 * under a final Arabic ي, stacked Vietnamese accents) are drawn, not cut off. `fitWidth`: the
 * most the line can be given, for a line with emoji or right to left (tree.ts).
 */
export function singleLine(style: Style, text: string, fitWidth?: number | 'row'): El {
  const dir = directionOf(text);
  const line = textBlock(
    {
      whiteSpace: 'pre',
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      minWidth: 0,
      paddingTop: CLIP_SLACK,
      paddingBottom: CLIP_SLACK,
      marginTop: -CLIP_SLACK,
      marginBottom: -CLIP_SLACK,
      ...style,
    },
    inlineText(text),
    dir,
  );
  // The engine's own ellipsis cuts a line with images anywhere, and in a line with right-to-left
  // text is itself cut to a dot or lost: such lines are shortened by measuring them
  // (engine-fits.ts), keeping the name's beginning.
  // A right-to-left line holds a character MAYBE_RTL finds (directionOf).
  // So is a line with a ligature or conjunct, which the engine's ellipsis cuts inside (glyph-clusters.ts).
  // `'row'`: as wide as its row leaves it (a handle after a name), found when drawn.
  if (
    fitWidth !== undefined &&
    (MAYBE_RTL.test(text) || hasGlyphCluster(text) || line.props.children?.some((c) => typeof c !== 'string'))
  ) {
    if (fitWidth === 'row') line.props.fitInRow = true;
    else line.props.fitWidth = fitWidth;
  }
  return line;
}

export interface TextStyle {
  width: number;
  fontSize: number;
  lineHeight: number;
  color: string;
  linkColor: string;
}

interface Run {
  text: string;
  link: boolean;
  /** Where an entity leads (entityUrl), when it leads anywhere safe. */
  href?: string | null;
  /**
   * How an entity is isolated in a right-to-left paragraph, as X shows it: a handle, cashtag or
   * link left to right ("@vercel", not "vercel@"), a hashtag by its own first letter.
   */
  isolate?: 'ltr' | 'auto';
}

/** Paragraphs (split at line breaks) of coloured runs. */
function paragraphsOf(post: Pick<Post, 'text' | 'entities'>): Run[][] {
  const paragraphs: Run[][] = [[]];
  for (const seg of segmentText(post)) {
    const link = seg.type !== 'text';
    const isolate = seg.type === 'text' ? undefined : seg.type === 'hashtag' ? 'auto' : 'ltr';
    const href = seg.type === 'text' ? undefined : entityUrl(seg);
    seg.text.split('\n').forEach((piece, i) => {
      if (i > 0) paragraphs.push([]);
      const text = cleanText(piece);
      if (text) paragraphs.at(-1)!.push({ text, link, isolate, href });
    });
  }
  return paragraphs;
}

/** The element for a post's text: a column of paragraphs. */
export function renderText(post: Pick<Post, 'text' | 'entities'>, s: TextStyle): El | null {
  if (!post.text) return null;
  const postDir = directionOf(post.text);
  const paragraphs = paragraphsOf(post).map((runs) => {
    const dir = directionOf(runs.map((r) => r.text).join(''), postDir);
    return textBlock(
      {
        width: s.width,
        // An empty line keeps its height.
        minHeight: s.lineHeight,
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
      },
      runs.flatMap((r) => {
        const children = inlineText(openLongArabicWords(r.text, s.width, s.fontSize));
        if (!r.link) return children;
        return [entitySpan(r.href ?? null, dir === 'rtl' ? r.isolate : undefined, { color: s.linkColor }, children)];
      }),
      dir,
    );
  });
  return {
    type: 'div',
    props: {
      style: {
        display: 'flex',
        flexDirection: 'column',
        width: s.width,
        fontSize: s.fontSize,
        lineHeight: `${s.lineHeight}px`,
        color: s.color,
      },
      children: paragraphs,
    },
  };
}

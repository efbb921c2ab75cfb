// The card tree as the engine's node tree. Text reaches the engine changed only where its layout
// would differ from a browser's: word breaks for scripts without spaces and before small kana,
// marks beside inline images, joiners that join nothing. Paragraphs that need a layout first
// (a name to cut, right-to-left runs to end, soft hyphens) are listed as fits for engine-fits.ts.
import type { Node } from '@takumi-rs/core';
import { separateImagesFromLetters } from './image-joins.ts';
import { imageMarks } from './image-levels.ts';
import { hasImageInLtrRun, hasSpaceInLtrRunOfPieces, hasSpaceInRtlRun, type Piece, textOf } from './rtl-run-breaks.ts';
import { hasSoftHyphen } from './soft-hyphens.ts';
import { ALIGNED_TABS, splitTabs } from './tab-stops.ts';
import type { Child, ImageBytes } from './tree.ts';
import { insertWordBreaks, kanaBreaks, meetAtSaEdge, SA_JOINER, spaceBeforeKana } from './word-breaks.ts';

export type Container = Extract<Node, { type: 'container' }>;

export interface Fit {
  node: Container;
  width: number;
  /** The text styles the line inherits from the boxes around it: measured alone, it needs them. */
  inherited: Record<string, unknown>;
  /** A single line to cut with an ellipsis where it does not fit `width`. */
  line?: true;
  /** A paragraph whose lines are to end before its right-to-left runs' spaces, not a line to cut. */
  wraps?: true;
  /** A paragraph whose lines ending at a soft hyphen are to show a hyphen (soft-hyphens.ts). */
  hyphens?: true;
  /** The spans of a paragraph's tabs, to widen to their tab stops (tab-stops.ts). */
  tabs?: Container[];
  /** A line whose `width` is what its row leaves it, found by laying the row out first. */
  inRow?: { row?: Container; inherited?: Record<string, unknown> };
}

/** Styles a line's glyphs inherit, and so its width. */
const INHERITED_TEXT = ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'letterSpacing', 'wordSpacing'];

/**
 * The text nodes and inline images of a block, in logical order (inside its inline spans too),
 * each with the place it holds in its parent.
 */
interface Slot {
  piece: Piece;
  parent: Container;
  index: number;
}

function slotsOf(block: Container): Slot[] {
  return (block.children ?? []).flatMap((child, index) => {
    if (child.type === 'container') return slotsOf(child);
    if (child.type === 'text') return [{ piece: child, parent: block, index }];
    return child.type === 'image' ? [{ piece: { image: true } as const, parent: block, index }] : [];
  });
}

export const piecesOf = (block: Container): Piece[] => slotsOf(block).map((s) => s.piece);

/**
 * Separates a paragraph's inline images from joining letters (image-joins.ts) and puts the marks
 * image-levels.ts asks for before them.
 */
function markImages(slots: Slot[], dir: 'ltr' | 'rtl'): void {
  const pieces = slots.map((s) => s.piece);
  separateImagesFromLetters(pieces);
  // From the last, so that the places of those before stay where they were.
  for (const [i, mark] of [...imageMarks(pieces, dir)].reverse()) {
    const { parent, index } = slots[i];
    parent.children!.splice(index, 0, { type: 'text', text: mark });
  }
}

const LAYOUT_UNIT = 1 / 64;

const WRAPPING = new Set([undefined, 'normal', 'pre-wrap', 'pre-line']);

/** A paragraph's text (images as U+FFFC) when it wraps at a width; null for any other box. */
function wrappingText(node: Container, style: Record<string, unknown> | undefined): string | null {
  if (typeof style?.width !== 'number' || !WRAPPING.has(style.whiteSpace as string | undefined)) return null;
  return piecesOf(node).map(textOf).join('');
}

/**
 * Breaks before small kana in a wrapping paragraph (word-breaks.ts): its text nodes in spans
 * with word-break: break-all when it is all Japanese, else zero-width spaces in its text.
 */
function breakBeforeKana(slots: Slot[]): void {
  const how = kanaBreaks(slots.map((s) => textOf(s.piece)).join(''));
  if (how === 'none') return;
  for (const { piece, parent, index } of slots) {
    if (piece.image) continue;
    if (how === 'spaces') piece.text = spaceBeforeKana(piece.text);
    else
      parent.children![index] = {
        type: 'container',
        style: { display: 'inline', wordBreak: 'break-all' },
        children: [parent.children![index]],
      };
  }
}

/** Keeps a word of a script without spaces to the word of another in the next text node (word-breaks.ts). */
function joinSaEdges(slots: Slot[]): void {
  for (let i = 1; i < slots.length; i++) {
    const [before, after] = [slots[i - 1].piece, slots[i].piece];
    if (!before.image && !after.image && meetAtSaEdge(before.text, after.text)) before.text += SA_JOINER;
  }
}

// A ZWJ or ZWNJ after a letter of a script that never joins (Latin, Cyrillic, Hebrew, Thai, CJK...)
// changes nothing drawn, but it joins the letter's grapheme, and the engine draws a grapheme from
// one face: once a face with joiners was loaded (Devanagari's, say), it drew the pair from that
// face, a Latin letter in another design and an ideograph as a box.
const NON_JOINING = String.raw`\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Lao}\p{Script=Ethiopic}\p{Script=Cherokee}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef\d`;
const IDLE_JOINER = new RegExp(`(?<=[${NON_JOINING}])[\\u200c\\u200d]+`, 'gu');
const dropIdleJoiners = (text: string) =>
  text.includes('\u200c') || text.includes('\u200d') ? text.replace(IDLE_JOINER, '') : text;

// The isolate a span's `dir` makes in a browser, given to the engine as its controls (UAX #9).
const ISOLATE_START = { ltr: '\u2066', rtl: '\u2067', auto: '\u2068' } as const;
const ISOLATE_END = '\u2069';

export function toNode(
  child: Child,
  images: Map<string, ImageBytes>,
  fits: Fit[],
  inherited: Record<string, unknown> = {},
): Node {
  if (typeof child === 'string') return { type: 'text', text: insertWordBreaks(dropIdleJoiners(child)) };
  const { style, children, image, lang, fitWidth, fitInRow } = child.props;
  if (child.type === 'img') {
    images.set(image!.key, image!);
    return { type: 'image', src: image!.key, style: style as never };
  }
  if (child.type === 'span' && child.props.dir) {
    const isolated = [ISOLATE_START[child.props.dir], ...(children ?? []), ISOLATE_END];
    const props = { ...child.props, dir: undefined, children: isolated };
    return toNode({ type: 'span', props }, images, fits, inherited);
  }
  // A block's direction ('auto' is a span's alone).
  const dir = child.props.dir === 'auto' ? undefined : child.props.dir;
  const inside = { ...inherited };
  for (const key of INHERITED_TEXT) if (style?.[key] !== undefined) inside[key] = style[key];
  const node: Node = {
    type: 'container',
    ...(dir ? { dir } : {}),
    ...(lang ? { lang } : {}),
    style: (child.type === 'span' ? { display: 'inline', ...style } : style) as never,
    children: (children ?? []).map((c) => toNode(c, images, fits, inside)),
  };
  // A line to fit in its row (fitInRow) learns its row here, once the row's node exists.
  for (const f of fits)
    if (f.inRow && !f.inRow.row && node.children?.includes(f.node)) f.inRow = { row: node, inherited };
  if (dir) {
    // One walk for all three: a text node wrapped in a span for kana breaks leaves every image in
    // its place, a joiner only lengthens a text node, and marks go only before images.
    const slots = slotsOf(node);
    if (fitWidth === undefined && WRAPPING.has(style?.whiteSpace as string | undefined)) {
      breakBeforeKana(slots);
      joinSaEdges(slots);
    }
    markImages(slots, dir);
  }
  // Tabs are kept only where white space is: elsewhere they are spaces.
  const aligned = ALIGNED_TABS - fits.reduce((n, f) => n + (f.tabs?.length ?? 0), 0);
  const tabs =
    aligned > 0 &&
    (style?.whiteSpace === 'pre-wrap' || style?.whiteSpace === 'pre') &&
    piecesOf(node).some((p) => !p.image && p.text.includes('\t'))
      ? { tabs: splitTabs(node, dir ?? 'ltr', aligned) }
      : {};
  if (fitWidth !== undefined || fitInRow) {
    fits.push({
      node,
      width: fitWidth ?? Number.NaN,
      inherited: inside,
      line: true,
      ...tabs,
      ...(fitInRow ? { inRow: {} } : {}),
    });
    return node;
  }
  // Laid out first: a left-to-right paragraph with a space inside a right-to-left run, or a
  // right-to-left one with an image, or a space and a span's edge, inside a left-to-right run
  // (rtl-run-breaks.ts), else one holding a soft hyphen (soft-hyphens.ts).
  const text = wrappingText(node, style);
  const width = style?.width as number;
  // A browser fits a line up to a layout unit (1/64 px) wider than its box, which rounding may
  // leave; the engine's sum of advances can be that much over (25 digits: 286.00003 px in 286).
  if (text !== null) node.style = { ...(node.style as object), width: width + LAYOUT_UNIT } as never;
  const runBreaks =
    dir === 'ltr'
      ? hasSpaceInRtlRun
      : dir === 'rtl'
        ? (t: string) => hasImageInLtrRun(t) || hasSpaceInLtrRunOfPieces(piecesOf(node))
        : () => false;
  const kind =
    text === null
      ? null
      : runBreaks(text)
        ? { wraps: true as const }
        : hasSoftHyphen(text)
          ? { hyphens: true as const }
          : null;
  // A line that is not cut has no width to fit: its tabs are placed from its own edges.
  if (kind || tabs.tabs)
    fits.push({ node, width: text === null ? Number.NaN : width, inherited: inside, ...kind, ...tabs });
  return node;
}

// Lines the engine cannot be left to lay out alone: names and other single lines cut to fit with
// an ellipsis, and paragraphs whose right-to-left runs, soft hyphens or tabs a browser breaks or
// places otherwise. Each is laid out in the engine first (measure) and mended before the card is
// drawn.
import type { ImageSource, Node, Renderer } from '@takumi-rs/core';
import { type Fit, piecesOf, toNode } from './engine-tree.ts';
import { cutUnits } from './glyph-clusters.ts';
import { joinsNext, joinsPrevious } from './joining-types.ts';
import { bidiClass, breakRtlRunLines, drawnOrder, linesOf } from './rtl-run-breaks.ts';
import { hyphenateLineEnds } from './soft-hyphens.ts';
import { contentThrough, setTabWidth, tabWidth, textOfBlock } from './tab-stops.ts';
import { BASE_CSS, type El, type ImageBytes } from './tree.ts';

const PLACEMENT = new Set([
  'position',
  'left',
  'right',
  'top',
  'bottom',
  'width',
  'maxWidth',
  'flexShrink',
  'flexGrow',
]);

// Noto Sans draws every character of U+0020-U+017F at most 1em wide, in both weights.
const AT_MOST_1EM = /^[\u0020-\u017f]*$/;

/**
 * A width the line cannot exceed, from counting alone, or null when counting cannot tell: a
 * short name with an emoji then costs no measurement at all.
 */
function widthBound(fit: Fit): number | null {
  const em = fit.inherited.fontSize;
  if (typeof em !== 'number') return null;
  let width = 0;
  for (const c of fit.node.children ?? []) {
    if (c.type === 'text') {
      if (!AT_MOST_1EM.test(c.text)) return null;
      width += c.text.length * em;
      continue;
    }
    // Inline pictures are sized in em (emoji) or px (badges); margins add at most a quarter em.
    const w = (c.style as { width?: unknown } | undefined)?.width;
    const px = typeof w === 'number' ? w : typeof w === 'string' && /^[\d.]+em$/.test(w) ? parseFloat(w) * em : null;
    if (px === null) return null;
    width += px + em / 4;
  }
  return width;
}

/** How a line's units (graphemes and images) are drawn. */
interface Drawn {
  /** Where each unit is drawn, counted from the line's start edge. */
  ranks: number[];
  /** Each unit's embedding level. */
  levels: number[];
}

/**
 * Where each unit of a line is drawn, counted from the line's start edge; null when that is their
 * logical order (a line of one direction).
 */
function drawnUnits(units: Node[], dir: 'ltr' | 'rtl'): Drawn | null {
  const owner: number[] = [];
  const starts: number[] = [];
  const text = units
    .map((u, i) => {
      const t = u.type === 'text' ? u.text : '\ufffc';
      starts.push(owner.length);
      for (let k = 0; k < t.length; k++) owner.push(i);
      return t;
    })
    .join('');
  const ranks: number[] = new Array(units.length);
  let next = 0;
  const { order, levels } = drawnOrder(text, dir);
  for (const at of order) if (ranks[owner[at]] === undefined) ranks[owner[at]] = next++;
  if (ranks.every((rank, i) => rank === i)) return null;
  return { ranks, levels: starts.map((at) => levels[at]) };
}

const STRONG = new Set(['L', 'R', 'AL']);

/**
 * The units drawn first `n` from the line's start, in logical order. Each that is not a strong
 * letter (spaces, punctuation, digits, images) is held at its level by a mark on either side:
 * without the units taken out, a space that was inside a right-to-left run would go to the
 * left-to-right text beside it.
 */
function drawnFirst(units: Node[], drawn: Drawn, n: number): Node[] {
  return units.flatMap((unit, i) => {
    if (drawn.ranks[i] >= n) return [];
    if (unit.type === 'text' && STRONG.has(bidiClass(unit.text))) return [keepJoined(units, i, drawn.ranks, n)];
    const mark: Node = { type: 'text', text: drawn.levels[i] % 2 === 1 ? '\u200f' : '\u200e' };
    return [mark, unit, mark];
  });
}

const ZWJ = '\u200d';

/** Whether text unit `a` joins text unit `b` after it, as the whole line's shaping joins them. */
function joinsUnits(a: Node | undefined, b: Node | undefined): boolean {
  return a?.type === 'text' && b?.type === 'text' && joinsNext(a.text) && joinsPrevious(b.text);
}

/**
 * Letter unit `i` of a line cut to the units ranked below `n`, with a zero-width joiner on each
 * side where its logical neighbour is cut off and joined it in the whole line: the letter keeps
 * that line's form, as a browser draws the cut. The neighbour cut off is the one after it at the
 * end of a right-to-left line ("محمدعب…"), the one before it where a left-to-right line ends
 * inside an Arabic run, which is cut from its logical start ("Omar ـرو…").
 */
function keepJoined(units: Node[], i: number, ranks: number[], n: number): Node {
  const unit = units[i];
  if (unit.type !== 'text') return unit;
  const before = ranks[i - 1] >= n && joinsUnits(units[i - 1], unit) ? ZWJ : '';
  const after = ranks[i + 1] >= n && joinsUnits(unit, units[i + 1]) ? ZWJ : '';
  return before || after ? { type: 'text', text: `${before}${unit.text}${after}` } : unit;
}

/**
 * The first `n` units of a line of one direction. Where they end between two letters that join
 * (joining-types.ts: ب before ا, not ر before ا), a zero-width joiner keeps the last letter in the
 * form it has in the whole line, as a browser draws a cut line (from the line's own shaping, not
 * the cut text's): reshaped alone it would take its final form, wider or narrower, and the widths
 * of the cuts would not grow with their length ("مكتب…" is wider than "مكتبة…").
 */
export function joinedAtCut(units: Node[], n: number): Node[] {
  const kept = units.slice(0, n);
  const last = kept[n - 1];
  if (last?.type === 'text' && joinsUnits(last, units[n])) kept[n - 1] = { type: 'text', text: `${last.text}${ZWJ}` };
  return kept;
}

/**
 * Shortens a single line holding images to `width` with an ellipsis, by measuring it in the
 * engine (the same shaping and fonts). Binary search over the places a browser may cut
 * (graphemes, a ligature's or conjunct's together: glyph-clusters.ts) and images: a handful of
 * measurements, only for lines that overflow. A line of two directions is cut as a browser cuts
 * it, at its end edge as drawn: it keeps what is drawn nearest its start, which in "Dana | دانا
 * الكبيرة" is the end of the Arabic run, not its first word.
 */
async function fitLine(renderer: Renderer, fit: Fit, images: ImageSource[]): Promise<void> {
  const bound = widthBound(fit);
  if (bound !== null && bound <= fit.width) return;
  // The line alone at its natural width: without the box that places and limits it.
  const style = Object.fromEntries(
    Object.entries({
      ...fit.inherited,
      ...(fit.node.style as Record<string, unknown>),
      overflow: 'visible',
      textOverflow: 'clip',
    }).filter(([k]) => !PLACEMENT.has(k)),
  );
  const widthOf = async (children: Node[]) => {
    const probe = {
      type: 'container',
      style: { display: 'flex' },
      children: [{ ...fit.node, style, children }],
    };
    const measured = await renderer.measure(probe as Node, { images, css: [BASE_CSS] });
    return measured.children[0]?.width ?? 0;
  };
  const units: Node[] = (fit.node.children ?? []).flatMap((c) =>
    c.type === 'text' ? cutUnits(c.text).map((text) => ({ type: 'text', text }) as Node) : [c],
  );
  if ((await widthOf(units)) <= fit.width) return;
  const ellipsis: Node = { type: 'text', text: '…' };
  // The units drawn first n from the line's start, in logical order. The ellipsis after them is
  // a neutral at the paragraph's end: it takes the paragraph's direction and ends the line.
  const drawn = drawnUnits(units, fit.node.dir ?? 'ltr');
  const first = (n: number) => (drawn ? drawnFirst(units, drawn, n) : joinedAtCut(units, n));
  let low = 0;
  let high = units.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((await widthOf([...first(mid), ellipsis])) <= fit.width) low = mid;
    else high = mid - 1;
  }
  // A space before the ellipsis stays, as a browser's text-overflow keeps it; the cut line takes
  // the whole width, as the browser's overflowing box does (a right-to-left line ends at its right).
  fit.node.children = [...first(low), ellipsis];
  fit.node.style = { ...(fit.node.style as Record<string, unknown>), width: fit.width } as never;
}

/**
 * The width a line's row leaves it, the lines fitted before it (the name before a handle) as
 * they are drawn: the row laid out alone, at its own width. The row's children as measured are
 * its boxes and images, in order; Infinity (no cut) when the row is not found.
 */
async function widthInRow(renderer: Renderer, fit: Fit, images: ImageSource[]): Promise<number> {
  const { row, inherited } = fit.inRow ?? {};
  if (!row) return Number.POSITIVE_INFINITY;
  const probe = {
    type: 'container',
    style: { display: 'flex' },
    children: [{ ...row, style: { ...inherited, ...(row.style as Record<string, unknown>) } }],
  };
  const measured = await renderer.measure(probe as Node, { images, css: [BASE_CSS] });
  const at = (row.children ?? []).filter((c) => c.type !== 'text').indexOf(fit.node);
  return measured.children[0]?.children[at]?.width ?? Number.POSITIVE_INFINITY;
}

/** The paragraph laid out alone at its width, whole (not clamped), with its inherited styles. */
async function layOutAlone(renderer: Renderer, fit: Fit, images: ImageSource[], children?: Node[]) {
  const { lineClamp, maxHeight, overflow, ...style } = fit.node.style as Record<string, unknown>;
  const probe = {
    type: 'container',
    style: { display: 'flex' },
    children: [{ ...fit.node, style: { ...fit.inherited, ...style }, ...(children ? { children } : {}) }],
  };
  const measured = await renderer.measure(probe as Node, { images, css: [BASE_CSS] });
  return measured.children[0];
}

// Layouts of one paragraph with soft hyphens: each takes out one that ended a line too full.
const HYPHEN_LAYOUTS = 6;

/** Shows a hyphen where a line of the paragraph ends at a soft one (soft-hyphens.ts). */
async function hyphenate(renderer: Renderer, fit: Fit, images: ImageSource[]): Promise<void> {
  const hyphen = await layOutAlone(renderer, fit, images, [{ type: 'text', text: '-' }]);
  const hyphenWidth = Math.max(0, ...(hyphen?.runs ?? []).map((r) => r.width));
  for (let again = true, n = 0; again && n < HYPHEN_LAYOUTS; n++) {
    const paragraph = await layOutAlone(renderer, fit, images);
    if (!paragraph) return;
    const lines = linesOf(paragraph.runs, Number(fit.inherited.fontSize) || 16);
    again = hyphenateLineEnds(piecesOf(fit.node), lines, fit.width, hyphenWidth);
  }
}

/** Lays the paragraph out alone at its width, and ends its lines as rtl-run-breaks.ts says. */
async function breakRtlRuns(renderer: Renderer, fit: Fit, images: ImageSource[]): Promise<void> {
  const style = fit.node.style as Record<string, unknown>;
  const pieces = piecesOf(fit.node);
  // A forced break in collapsing white space needs pre-line, which would break at the text's own
  // line feeds too: they are given as the spaces they collapse to.
  const collapsing = style.whiteSpace === undefined || style.whiteSpace === 'normal';
  if (collapsing) for (const p of pieces) if (!p.image) p.text = p.text.replace(/[\t\n]/g, ' ');
  const paragraph = await layOutAlone(renderer, fit, images);
  if (!paragraph) return;
  const lines = linesOf(paragraph.runs, Number(fit.inherited.fontSize) || 16);
  // Inline images are the measured paragraph's children, placed on the page: their middles are
  // made relative to the paragraph, as its runs are.
  const imageMiddles = paragraph.children.map((c) => c.transform[5] - paragraph.transform[5] + c.height / 2);
  if (breakRtlRunLines(pieces, lines, imageMiddles, fit.node.dir) && collapsing)
    fit.node.style = { ...fit.node.style, whiteSpace: 'pre-line' };
}

// What the layouts placing a card's tabs may lay out between them, in characters: each lays out
// its paragraph up to its tab. Tabs past that stay eight spaces wide, as the engine draws them.
const TAB_LAYOUT_CHARS = 100_000;

/**
 * Widens each tab of the paragraph to its tab stop (tab-stops.ts), in logical order: where a tab
 * stands depends on the tabs before it. Each is found laid out last, at its line's end edge; its
 * position is counted from the line's start edge, the right one in a right-to-left paragraph.
 */
async function alignTabs(renderer: Renderer, fit: Fit, images: ImageSource[], budget: { chars: number }) {
  const rtl = fit.node.dir === 'rtl';
  const em = Number(fit.inherited.fontSize) || 16;
  const alone = await layOutAlone(renderer, fit, images, [{ type: 'text', text: ' ' }]);
  const space = alone?.runs[0]?.width;
  if (!space) return;
  for (const span of fit.tabs!) {
    const cut = contentThrough(fit.node, span);
    budget.chars -= cut ? textOfBlock(cut).length : 0;
    if (budget.chars < 0) {
      setTabWidth(span, space, tabWidth(0, space));
      continue;
    }
    const paragraph = cut && (await layOutAlone(renderer, fit, images, cut.children));
    if (!paragraph) continue;
    const runs = paragraph.runs;
    const middle = (r: (typeof runs)[number]) => r.y + r.height / 2;
    const last = Math.max(...runs.map(middle));
    // The marks around a tab (tab-stops.ts) take no width: the tab's space is the widest at its x.
    const onLastLine = runs.filter((r) => last - middle(r) <= em / 2 && r.width > 0);
    const run = onLastLine.reduce<(typeof runs)[number] | undefined>(
      (end, r) => (!end || (rtl ? r.x < end.x : r.x > end.x) ? r : end),
      undefined,
    );
    if (run?.text !== ' ') continue;
    const position = rtl ? paragraph.width - (run.x + run.width) : run.x;
    setTabWidth(span, run.width, tabWidth(position, space));
  }
}

/**
 * The card tree as the engine's node tree, each line that must fit, wrap or align laid out and
 * mended first (engine-tree.ts marks them), with the images it draws.
 */
export async function fitTree(renderer: Renderer, tree: El): Promise<{ node: Node; images: ImageSource[] }> {
  const images = new Map<string, ImageBytes>();
  const fits: Fit[] = [];
  const node = toNode(tree, images, fits);
  const sources = [...images.values()].map((i) => ({ src: i.key, data: i.bytes }));
  const tabBudget = { chars: TAB_LAYOUT_CHARS };
  for (const fit of fits) {
    if (fit.tabs) await alignTabs(renderer, fit, sources, tabBudget);
    if (fit.wraps) await breakRtlRuns(renderer, fit, sources);
    else if (fit.hyphens) await hyphenate(renderer, fit, sources);
    else if (fit.line) {
      if (fit.inRow) fit.width = await widthInRow(renderer, fit, sources);
      await fitLine(renderer, fit, sources);
    }
  }
  return { node, images: sources };
}

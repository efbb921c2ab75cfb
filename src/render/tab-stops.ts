// Tabs in preserved white space. A browser advances a tab to the next tab stop, every eight space
// widths from the line's start edge (CSS tab-size: 8), so tabbed columns line up; the engine
// draws each tab eight spaces wide wherever it stands. Each tab becomes an inline span of one
// space, widened by letter spacing to reach the stop a browser would reach (engine-fits.ts).
import type { Node } from '@takumi-rs/core';
import { bidiClass } from './rtl-run-breaks.ts';

type Container = Extract<Node, { type: 'container' }>;

const TAB_SIZE = 8;

/**
 * The tabs of a card placed at tab stops: each costs a layout of its paragraph up to it. Those
 * after stay tab characters, eight spaces wide, as the engine draws them.
 */
export const ALIGNED_TABS = 64;

/** A tab's span: one space, whose letter spacing sets its width. */
function tabSpan(): Container {
  return { type: 'container', style: { display: 'inline', letterSpacing: 0 }, children: [{ type: 'text', text: ' ' }] };
}

const LRM = '\u200e';
const RLM = '\u200f';
const OBJECT = '\ufffc';

const markOf = (strong: string) => (strong === 'L' ? LRM : RLM);

/** The bidi class of the first character from `at` on (step 1) or back (step -1) that is in `wanted`. */
function findClass(text: string, at: number, step: 1 | -1, wanted: readonly string[]): string | undefined {
  for (let i = at; i >= 0 && i < text.length; i += step) {
    const c = bidiClass(text[i]);
    if (wanted.includes(c)) return c;
  }
  return undefined;
}

const STRONG = ['L', 'R', 'AL'];
const STRONG_OR_NUMBER = ['L', 'R', 'AL', 'EN', 'AN'];

/**
 * The marks to put before and after the tab at `tab` in the block's `text`. The engine reads the
 * span's space as a space, where a browser reads a tab as a segment separator: resolved as a
 * neutral, then laid at the paragraph's level (UAX #9, L1), so that the text on either side of it
 * is ordered apart ("שם\tName\t%" in a right-to-left paragraph keeps Name and % in two columns).
 * The paragraph's mark on each side of the space gives it that level; outside them, the mark of
 * what the text before and after the tab resolves against keeps that text's neutrals and numbers
 * as they were. Read outward from the tab, as far as the first such letter: a card's tabs cost
 * what lies between them, not the whole text each.
 */
export function tabMarks(text: string, tab: number, dir: 'ltr' | 'rtl'): [string, string] {
  const paragraph = dir === 'rtl' ? RLM : LRM;
  // Surrogate halves are class L in bidi-js; every strong letter outside the BMP is L too.
  const lastStrong = findClass(text, tab - 1, -1, STRONG) ?? (dir === 'rtl' ? 'R' : 'L');
  const next = findClass(text, tab + 1, 1, STRONG_OR_NUMBER);
  // A European number after the tab takes the direction of the last strong letter before it (W7).
  const nextSide = next === undefined ? paragraph : next === 'EN' ? markOf(lastStrong) : markOf(next);
  return [nextSide + paragraph, paragraph + markOf(lastStrong)];
}

/**
 * Puts each of the block's first `limit` tabs (in its text nodes and inline spans) in a span of
 * its own, between the marks tabMarks gives it; returns the spans in logical order. Tabs past the
 * limit stay tab characters, which the engine draws eight spaces wide.
 */
export function splitTabs(block: Container, dir: 'ltr' | 'rtl', limit: number): Container[] {
  const text = textOfBlock(block);
  const spans: Container[] = [];
  let at = 0;
  const split = (parent: Container) => {
    parent.children = (parent.children ?? []).flatMap((child): Node[] => {
      if (child.type === 'container') {
        split(child);
        return [child];
      }
      if (child.type !== 'text') {
        at += 1;
        return [child];
      }
      if (!child.text.includes('\t')) {
        at += child.text.length;
        return [child];
      }
      // Text between spans stays one node: the engine lays many small ones out slowly.
      const out: Node[] = [];
      let pending = '';
      child.text.split('\t').forEach((part, i) => {
        const tab = at;
        at += part.length + (i === 0 ? 0 : 1);
        if (i > 0 && spans.length >= limit) pending += '\t';
        else if (i > 0) {
          if (pending) out.push({ ...child, text: pending });
          pending = '';
          const span = tabSpan();
          spans.push(span);
          const [open, close] = tabMarks(text, tab, dir);
          out.push({ type: 'text', text: open }, span, { type: 'text', text: close });
        }
        pending += part;
      });
      if (pending) out.push({ ...child, text: pending });
      return out;
    });
  };
  split(block);
  return spans;
}

/** The block's text in logical order, an image as U+FFFC. */
export function textOfBlock(block: Container): string {
  return (block.children ?? [])
    .map((c) => (c.type === 'container' ? textOfBlock(c) : c.type === 'text' ? c.text : OBJECT))
    .join('');
}

/** The block cut after `last`: its content up to that node, in logical order; null when not in it. */
export function contentThrough(block: Container, last: Node): Container | null {
  const children: Node[] = [];
  for (const child of block.children ?? []) {
    if (child === last) return { ...block, children: [...children, child] };
    if (child.type === 'container') {
      const cut = contentThrough(child, last);
      if (cut) return { ...block, children: [...children, cut] };
    }
    children.push(child);
  }
  return null;
}

/** Width of a tab that starts `position` from its line's start edge, with `space` the space width. */
export function tabWidth(position: number, space: number): number {
  const interval = TAB_SIZE * space;
  const width = interval - (position % interval);
  // As a browser: a tab is at least half a space wide, else it reaches the stop after.
  return width < space / 2 ? width + interval : width;
}

/** Sets the span's width, given the width it was laid out at (its space and letter spacing). */
export function setTabWidth(span: Container, laidOut: number, width: number): void {
  const spacing = Number((span.style as { letterSpacing?: number }).letterSpacing ?? 0);
  span.style = { ...(span.style as object), letterSpacing: width - (laidOut - spacing) } as never;
}

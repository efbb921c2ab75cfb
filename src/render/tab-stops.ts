// Tabs in preserved white space. A browser advances a tab to the next tab stop, every eight space
// widths from the line's start edge (CSS tab-size: 8), so tabbed columns line up; the engine
// draws each tab eight spaces wide wherever it stands. Each tab becomes an inline span of one
// space, widened by letter spacing to reach the stop a browser would reach (engine-takumi.ts).
import type { Node } from '@takumi-rs/core';
import { bidiClass } from './rtl-run-breaks.ts';

type Container = Extract<Node, { type: 'container' }>;

const TAB_SIZE = 8;

/** A tab's span: one space, whose letter spacing sets its width. */
function tabSpan(): Container {
  return { type: 'container', style: { display: 'inline', letterSpacing: 0 }, children: [{ type: 'text', text: ' ' }] };
}

const LRM = '\u200e';
const RLM = '\u200f';
const OBJECT = '\ufffc';

const markOf = (strong: string) => (strong === 'L' ? LRM : RLM);

/**
 * The marks to put before and after a tab's span. The engine reads the span's space as a space,
 * where a browser reads a tab as a segment separator: resolved as a neutral, then laid at the
 * paragraph's level (UAX #9, L1), so that the text on either side of it is ordered apart
 * ("שם\tName\t%" in a right-to-left paragraph keeps Name and % in two columns). The paragraph's
 * mark on each side of the space gives it that level; outside them, the mark of what the text
 * before and after the tab resolves against keeps that text's neutrals and numbers as they were.
 */
export function tabMarks(before: string, after: string, dir: 'ltr' | 'rtl'): [string, string] {
  const paragraph = dir === 'rtl' ? RLM : LRM;
  const strongBefore = [...before]
    .reverse()
    .map(bidiClass)
    .find((c) => c === 'L' || c === 'R' || c === 'AL');
  const lastStrong = strongBefore ?? (dir === 'rtl' ? 'R' : 'L');
  const next = [...after].map(bidiClass).find((c) => ['L', 'R', 'AL', 'EN', 'AN'].includes(c));
  // A European number after the tab takes the direction of the last strong letter before it (W7).
  const nextSide = next === undefined ? paragraph : next === 'EN' ? markOf(lastStrong) : markOf(next);
  return [nextSide + paragraph, paragraph + markOf(lastStrong)];
}

/**
 * Puts each tab of the block's text nodes (in its inline spans too) in a span of its own, between
 * the marks tabMarks gives it; returns the spans in logical order, none when the block has no tab.
 */
export function splitTabs(block: Container, dir: 'ltr' | 'rtl'): Container[] {
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
      return child.text.split('\t').flatMap((part, i): Node[] => {
        const parts: Node[] = part ? [{ ...child, text: part }] : [];
        const tab = at;
        at += part.length + (i === 0 ? 0 : 1);
        if (i === 0) return parts;
        const span = tabSpan();
        spans.push(span);
        const [open, close] = tabMarks(text.slice(0, tab), text.slice(tab + 1), dir);
        return [{ type: 'text', text: open }, span, { type: 'text', text: close }, ...parts];
      });
    });
  };
  split(block);
  return spans;
}

/** The block's text in logical order, an image as U+FFFC. */
function textOfBlock(block: Container): string {
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

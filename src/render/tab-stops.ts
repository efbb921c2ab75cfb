// Tabs in preserved white space. A browser advances a tab to the next tab stop, every eight space
// widths from the line's start edge (CSS tab-size: 8), so tabbed columns line up; the engine
// draws each tab eight spaces wide wherever it stands. Each tab becomes an inline span of one
// space, widened by letter spacing to reach the stop a browser would reach (engine-takumi.ts).
import type { Node } from '@takumi-rs/core';

type Container = Extract<Node, { type: 'container' }>;

const TAB_SIZE = 8;

/** A tab's span: one space, whose letter spacing sets its width. */
function tabSpan(): Container {
  return { type: 'container', style: { display: 'inline', letterSpacing: 0 }, children: [{ type: 'text', text: ' ' }] };
}

/**
 * Puts each tab of the block's text nodes (in its inline spans too) in a span of its own; returns
 * the spans in logical order, none when the block has no tab.
 */
export function splitTabs(block: Container): Container[] {
  const spans: Container[] = [];
  block.children = (block.children ?? []).flatMap((child): Node[] => {
    if (child.type === 'container') {
      spans.push(...splitTabs(child));
      return [child];
    }
    if (child.type !== 'text' || !child.text.includes('\t')) return [child];
    return child.text.split('\t').flatMap((text, i): Node[] => {
      const parts: Node[] = text ? [{ ...child, text }] : [];
      if (i === 0) return parts;
      const span = tabSpan();
      spans.push(span);
      return [span, ...parts];
    });
  });
  return spans;
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

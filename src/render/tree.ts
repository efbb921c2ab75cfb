// The card tree: plain satori-compatible elements. satori turns it into SVG; html.ts turns the
// same tree into an HTML document. Nothing else describes what a card looks like.

export type Style = Record<string, string | number>;

export interface El {
  type: 'div' | 'span' | 'img';
  props: {
    style?: Style;
    children?: Child | Child[];
    src?: string;
    width?: number;
    height?: number;
    alt?: string;
  };
}

export type Child = El | string;

// Widths include padding and border everywhere (satori defaults to content-box like CSS).
const BASE: Style = { boxSizing: 'border-box' };

/** A flex box (satori's default display, made explicit so HTML lays out the same). */
export function box(style: Style, ...children: Array<Child | null | undefined | false>): El {
  return { type: 'div', props: { style: { display: 'flex', ...BASE, ...style }, children: children.filter((c): c is Child => Boolean(c)) } };
}

/** A block of inline text: strings and spans wrap like a paragraph. */
export function textBlock(style: Style, children: Child[]): El {
  return { type: 'div', props: { style: { display: 'block', ...BASE, ...style }, children } };
}

export function span(style: Style, text: string): El {
  return { type: 'span', props: { style, children: text } };
}

export function img(src: string, width: number, height: number, style: Style = {}): El {
  return { type: 'img', props: { src, width, height, style: { width, height, ...style } } };
}

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

// Widths include padding and border, as in CSS with box-sizing: border-box (the HTML document
// sets it for every element). satori defaults to content-box, so a box whose size is given and
// that has padding or a border says so, and the others leave it out: satori parses every
// property of every element on every render.
const SIZED = /^(width|height|minWidth|minHeight|maxWidth|maxHeight|flexBasis)$/;
const INSET = /^(padding|border)/;

function withBoxSizing(style: Style): Style {
  const keys = Object.keys(style);
  return keys.some((k) => SIZED.test(k)) && keys.some((k) => INSET.test(k))
    ? { boxSizing: 'border-box', ...style }
    : style;
}

/** A flex box (display made explicit: satori and HTML both lay a div out as a block otherwise). */
export function box(style: Style, ...children: Array<Child | null | undefined | false>): El {
  return {
    type: 'div',
    props: {
      style: { display: 'flex', ...withBoxSizing(style) },
      children: children.filter((c): c is Child => Boolean(c)),
    },
  };
}

/** A block of inline text: strings and spans wrap like a paragraph. */
export function textBlock(style: Style, children: Child[]): El {
  return { type: 'div', props: { style: { display: 'block', ...withBoxSizing(style) }, children } };
}

export function span(style: Style, text: string): El {
  return { type: 'span', props: { style, children: text } };
}

export function img(src: string, width: number, height: number, style: Style = {}): El {
  return { type: 'img', props: { src, width, height, style: { width, height, ...style } } };
}

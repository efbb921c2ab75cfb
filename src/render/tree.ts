// The card tree: boxes, text and images with CSS-like styles, built once per render by card.ts.
// Both outputs derive from it: engine.ts hands it to the layout engine (PNG, SVG), html.ts
// writes it as natural markup (one element per paragraph, entities as inline spans). Nothing
// else describes what a card looks like.

/** CSS defaults the card tree relies on, given to the engine and to the HTML output alike. */
export const BASE_CSS = '*{box-sizing:border-box;margin:0;padding:0;min-width:0;min-height:0}';

export type Style = Record<string, string | number>;

/** Image bytes with a content key: the engine caches decoded images by that key. */
export interface ImageBytes {
  key: string;
  mime: string;
  bytes: Uint8Array;
}

export interface El {
  type: 'div' | 'span' | 'img';
  props: {
    style?: Style;
    children?: Child[];
    image?: ImageBytes;
    /** Text an image stands for (emoji): copied with the text, read by screen readers. */
    alt?: string;
    /** On a span: isolated from the text around it, as an inline element's `dir` isolates it (UAX #9). */
    dir?: 'ltr' | 'rtl' | 'auto';
    lang?: string;
    /** Where the text it draws leads (an http(s) URL): a link in the HTML only. */
    href?: string;
    /**
     * A single line holding images (emoji) that may not fit: the engine shortens it to this many
     * CSS px and ends it in an ellipsis itself, as its own ellipsis drops inline images.
     */
    fitWidth?: number;
    /**
     * As fitWidth, for a line whose width is what its row leaves it (a quoted post's handle,
     * after the name): found by laying the row out (engine-fits.ts).
     */
    fitInRow?: true;
  };
}

export type Child = El | string;

type Children = Array<Child | null | undefined | false>;

const present = (children: Children): Child[] => children.filter((c): c is Child => Boolean(c));

/** A flex box (display made explicit: the engine and HTML then agree whatever their default). */
export function box(style: Style, ...children: Children): El {
  return { type: 'div', props: { style: { display: 'flex', ...style }, children: present(children) } };
}

/** A block of inline text: strings, spans and inline images wrap like a paragraph. */
export function textBlock(style: Style, children: Children, dir?: 'ltr' | 'rtl'): El {
  return { type: 'div', props: { style: { display: 'block', ...style }, children: present(children), dir } };
}

export function span(style: Style, ...children: Children): El {
  return { type: 'span', props: { style, children: present(children) } };
}

/**
 * An entity's span: a link to `href` in the HTML, and, given `dir`, isolated in that direction,
 * so that its neutrals (the @ of a mention) stay with its text.
 */
export function entitySpan(href: string | null, dir: 'ltr' | 'auto' | undefined, style: Style, children: Children): El {
  return { type: 'span', props: { style, children: present(children), dir, href: href ?? undefined } };
}

export function img(image: ImageBytes, width: number | string, height: number | string, style: Style = {}): El {
  return { type: 'img', props: { image, style: { width, height, flexShrink: 0, ...style } } };
}

// The same card tree as an HTML document: natural markup (a paragraph is one element with its
// text and `dir`, entities are inline links, emoji are images whose alt is the emoji), fonts and
// images inlined as data URIs, no scripts, and a Content-Security-Policy that forbids any request
// or script even if something slipped through. Every piece of text is escaped.
import { dataUri } from './assets.ts';
import { type FontFace, rangesOf, readFontData } from './fonts.ts';
import { BASE_CSS, type Child, type El, type Style } from './tree.ts';

const UNITLESS = new Set(['fontWeight', 'flexGrow', 'flexShrink', 'opacity', 'zIndex', 'lineHeight']);

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function cssValue(key: string, value: string | number): string {
  if (typeof value === 'number') return UNITLESS.has(key) ? String(value) : `${value}px`;
  return value;
}

/** CSS for one property; `lineClamp` as browsers clamp lines today (their prefixed box). */
function declaration(key: string, value: string | number): string {
  if (key === 'lineClamp')
    return `display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:${value};overflow:hidden`;
  return `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${cssValue(key, value)}`;
}

function styleAttr(style: Style | undefined): string {
  if (!style || Object.keys(style).length === 0) return '';
  const css = Object.entries(style)
    .map(([k, v]) => declaration(k, v))
    .join(';');
  return ` style="${escapeHtml(css)}"`;
}

function nodeHtml(node: Child): string {
  // A zero-width space is a break opportunity (arabic-breaks.ts): <wbr>, out of copied text.
  if (typeof node === 'string') return escapeHtml(node).replaceAll('\u200b', '<wbr>');
  const { style, children, image, alt, dir, lang } = node.props;
  if (node.type === 'img') {
    return `<img src="${escapeHtml(dataUri(image!))}" alt="${escapeHtml(alt ?? '')}"${styleAttr(style)}>`;
  }
  // A link (an http(s) URL: an entity's, the replied-to post's, a link card's) leads away only when
  // clicked, and in a new tab, since the card is often framed and x.com refuses to be.
  const tag = node.props.href ? 'a' : node.type;
  const href = node.props.href
    ? ` href="${escapeHtml(node.props.href)}" target="_blank" rel="nofollow noopener noreferrer"`
    : '';
  const attrs = `${href}${dir ? ` dir="${dir}"` : ''}${lang ? ` lang="${escapeHtml(lang)}"` : ''}${styleAttr(style)}`;
  return `<${tag}${attrs}>${(children ?? []).map(nodeHtml).join('')}</${tag}>`;
}

const hex = (cp: number) => cp.toString(16).toUpperCase();

function fontFaceCss(f: FontFace): string {
  const range = rangesOf(f)
    .map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`))
    .join(',');
  const format = f.file.endsWith('.woff2') ? 'woff2' : 'woff';
  return `@font-face{font-family:"${f.family}";font-weight:${f.weight};unicode-range:${range};src:url(data:font/${format};base64,${readFontData(f, 'browser').toString('base64')}) format("${format}")}`;
}

// The engine sets CJK punctuation at full width; Chromium would halve adjacent pairs (「、『) by
// default and break the lines elsewhere: `text-spacing-trim` keeps the page as the PNG.
export function renderHtmlDocument(tree: El, faces: FontFace[], title: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${faces.map(fontFaceCss).join('\n')}
${BASE_CSS}
html,body{background:transparent}
a{text-decoration:none}
body{display:inline-flex;-webkit-font-smoothing:antialiased;text-spacing-trim:space-all}
</style></head>
<body>${nodeHtml(tree)}</body></html>
`;
}

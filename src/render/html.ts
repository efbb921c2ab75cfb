// The same card tree as an HTML document: self-contained (fonts and images inlined as data
// URIs), no scripts, and a Content-Security-Policy that forbids any request or script even if
// something slipped through. Every piece of text is escaped; only data: images are emitted.
import { emojiDataUri, splitEmoji } from './emoji.ts';
import { readFontData, type FontFace } from './fonts.ts';
import type { Child, El, Style } from './tree.ts';

const UNITLESS = new Set(['fontWeight', 'flexGrow', 'flexShrink', 'opacity', 'zIndex', 'lineHeight']);

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function cssValue(key: string, value: string | number): string {
  if (typeof value === 'number') return UNITLESS.has(key) ? String(value) : `${value}px`;
  return value;
}

function styleAttr(style: Style | undefined): string {
  if (!style) return '';
  const css = Object.entries(style)
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${cssValue(k, v)}`)
    .join(';');
  return ` style="${escapeHtml(css)}"`;
}

function textHtml(text: string): string {
  const parts = splitEmoji(text);
  const html = parts
    .map((part) =>
      part.emoji
        ? `<img class="e" alt="${escapeHtml(part.text)}" src="${emojiDataUri(part.text)}">`
        : escapeHtml(part.text),
    )
    .join('');
  // One inline run: inside a flex box, text and emoji images would otherwise become separate
  // flex items and lose the spaces between them.
  return parts.some((p) => p.emoji) ? `<span>${html}</span>` : html;
}

function nodeHtml(node: Child): string {
  if (typeof node === 'string') return textHtml(node);
  const { style, children, src, width, height } = node.props;
  if (node.type === 'img') {
    if (!src?.startsWith('data:')) return '';
    return `<img src="${escapeHtml(src)}" width="${width ?? 0}" height="${height ?? 0}" alt=""${styleAttr(style)}>`;
  }
  const kids = children === undefined ? [] : Array.isArray(children) ? children : [children];
  return `<${node.type}${styleAttr(style)}>${kids.map(nodeHtml).join('')}</${node.type}>`;
}

export function renderHtmlDocument(tree: El, faces: FontFace[], title: string): string {
  const fontCss = faces
    .map(
      (f) =>
        `@font-face{font-family:"${f.name}";font-weight:${f.weight};src:url(data:font/woff;base64,${readFontData(f).toString('base64')}) format("woff")}`,
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${fontCss}
*{box-sizing:border-box;margin:0;padding:0}
html,body{background:transparent}
body{display:inline-flex;-webkit-font-smoothing:antialiased}
div,span{min-width:0;min-height:0}
img.e{width:1em;height:1em;vertical-align:-0.15em;display:inline}
</style></head>
<body>${nodeHtml(tree)}</body></html>
`;
}

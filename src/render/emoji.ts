// Emoji are drawn as Twemoji SVGs shipped in @twemoji/svg: the same picture in SVG, PNG and HTML.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const DIR = path.dirname(require.resolve('@twemoji/svg/package.json'));
const available = new Set(
  fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => f.slice(0, -4)),
);
const cache = new Map<string, string | null>();

const ZWJ = '\u200d';

/** Twemoji's file naming: code points in hex joined by '-', without U+FE0F unless the sequence has a ZWJ. */
function twemojiNames(grapheme: string): string[] {
  const all = [...grapheme].map((c) => c.codePointAt(0)!.toString(16));
  const stripped = [...grapheme.replace(/\ufe0f/g, '')].map((c) => c.codePointAt(0)!.toString(16));
  return grapheme.includes(ZWJ) ? [all.join('-'), stripped.join('-')] : [stripped.join('-'), all.join('-')];
}

/** The Twemoji SVG for one grapheme, as a data URI, or null when it is not an emoji Twemoji draws. */
export function emojiDataUri(grapheme: string): string | null {
  if (cache.has(grapheme)) return cache.get(grapheme)!;
  const name = twemojiNames(grapheme).find((n) => available.has(n));
  const uri = name
    ? `data:image/svg+xml;base64,${fs.readFileSync(path.join(DIR, `${name}.svg`)).toString('base64')}`
    : null;
  cache.set(grapheme, uri);
  return uri;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const PICTO = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/** Splits text into plain runs and emoji graphemes (those Twemoji has). */
export function splitEmoji(text: string): Array<{ emoji: boolean; text: string }> {
  const out: Array<{ emoji: boolean; text: string }> = [];
  if (!PICTO.test(text)) return [{ emoji: false, text }];
  for (const { segment } of segmenter.segment(text)) {
    const emoji = PICTO.test(segment) && emojiDataUri(segment) !== null;
    const last = out.at(-1);
    if (!emoji && last && !last.emoji) last.text += segment;
    else out.push({ emoji, text: segment });
  }
  return out;
}

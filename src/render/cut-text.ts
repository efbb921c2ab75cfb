// showFullText=false: a long post is cut where X cuts it in the timeline, before "Show more".
import { xWeightedEnd } from '../sources/limits.ts';
import type { Post } from '../sources/post.ts';
import { graphemes } from '../util/graphemes.ts';

/**
 * X shows this much of a long post before "Show more", weighed as X weighs posts: an ideograph,
 * kana, Hangul or emoji counts 2, so a Chinese or Japanese post shows 140 characters, as on X.
 */
export const VISIBLE_LENGTH = 280;
/** How far a cut may move back to a space or before an entity rather than cut a word or link. */
const NEAR = 40;

/** The last grapheme boundary at or before `end` code points (a family emoji is not split). */
function graphemeStart(text: string, end: number): number {
  let at = 0;
  for (const { segment } of graphemes.segment(text)) {
    const next = at + Array.from(segment).length;
    if (next > end) return at;
    at = next;
  }
  return at;
}

/**
 * The post's text cut at X's visible length (at a word boundary when one is near) with an
 * ellipsis, entities past the cut dropped; null when the whole text is visible anyway.
 */
export function cutText(post: Pick<Post, 'text' | 'entities'>): Pick<Post, 'text' | 'entities'> | null {
  const cps = Array.from(post.text);
  const fits = xWeightedEnd(post.text, VISIBLE_LENGTH, post.entities);
  if (fits >= cps.length) return null;
  let end = fits;
  const space = cps
    .slice(0, end)
    .join('')
    .search(/\s\S*$/);
  // Back up to the last space unless that would drop a long stretch (scripts without spaces).
  if (space > 0) {
    const at = Array.from(cps.join('').slice(0, space)).length;
    if (at > fits - NEAR) end = at;
  }
  // An entity the cut falls inside is cut before it, so no link shows half its text; one that
  // starts far back (a hashtag of hundreds of letters) is cut as plain text instead.
  for (const e of post.entities) if (e.start < end && e.end > end && end - e.start <= NEAR) end = e.start;
  // Whether a boundary falls after a code point depends on it and what precedes it only. A
  // grapheme that starts far back (hundreds of marks or jamo) is cut inside: else only "…" shows.
  const start = graphemeStart(cps.slice(0, end + 1).join(''), end);
  if (end - start <= NEAR) end = start;
  const text = `${cps.slice(0, end).join('').trimEnd()}…`;
  return { text, entities: post.entities.filter((e) => e.end <= end) };
}

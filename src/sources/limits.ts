// Threat model: an upstream body is hostile input (a compromised or buggy mirror can send a post
// X would never allow), and every renderer's cost grows with the post. A normalized post is held
// to X's own limits, so no post we accept costs more to draw than one X could show.
import type { Entity, Post } from './post.ts';
import { HANDLE_PATTERN } from './schema.ts';
import { dropControls } from './text.ts';
import { graphemes } from '../util/graphemes.ts';

const HANDLE = new RegExp(HANDLE_PATTERN);

export const POST_LIMITS = Object.freeze({
  /**
   * X's long posts (notes): 25,000 characters as X weighs them (xWeightedEnd), and never more
   * than this many code points.
   */
  textChars: 25_000,
  /** No X post carries more linked entities than it has words; a generous ceiling. */
  entities: 2_000,
  media: 4,
  pollChoices: 4,
  /** X's poll choices are at most 25 characters. */
  pollLabelChars: 25,
  /** X's display names are at most 50 characters. */
  nameChars: 50,
  /** X's alt text is at most 1,000 characters. */
  altChars: 1_000,
  cardTextChars: 300,
  urlChars: 4_096,
  /** Counts and votes: X's largest are in the billions; past this they are drawn as "999T". */
  count: 999e12,
  /** X's longest videos run 4 hours. */
  videoMs: 4 * 3_600_000,
});

/**
 * A body's post with the quotes nested in its quote left out: a card shows one level, and the
 * schema check recursed into every level (ten thousand of them overflowed the stack).
 */
export function dropNestedQuotes<T>(post: T, key: string): T {
  if (post === null || typeof post !== 'object') return post;
  const quoted = (post as Record<string, unknown>)[key];
  if (quoted === null || typeof quoted !== 'object' || !(key in quoted)) return post;
  const { [key]: _deeper, ...kept } = quoted as Record<string, unknown>;
  return { ...post, [key]: kept };
}

/** A count as drawn: a whole number from 0 to the ceiling, or none (NaN, Infinity, a string of nines). */
function capCount(n: number | undefined): number | undefined {
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return Math.min(POST_LIMITS.count, Math.max(0, Math.round(n)));
}

// Dates stay a day inside JavaScript's range (±8.64e15 ms), so that a time zone offset applied to
// them is still a date: past it, formatting threw.
const LAST_TIME = 8.64e15 - 86_400_000;

function capDate(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time) || Math.abs(time) <= LAST_TIME) return iso;
  return new Date(Math.sign(time) * LAST_TIME).toISOString();
}

/** The counts held as capCount holds one; a count that is none is left out, not kept undefined. */
function capCounts<T extends Record<string, number | undefined>>(counts: T): Partial<T> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(counts)) {
    const capped = capCount(v);
    if (capped !== undefined) out[k] = capped;
  }
  return out as Partial<T>;
}

// Segmenting is quadratic in the string's length on Node 20 (ICU): only short windows are segmented.
/** A grapheme (an emoji sequence, a letter with its marks) counts its UTF-16 units up to this many. */
const MAX_UNITS_PER_CHAR = 16;

/**
 * At most `max` characters as a reader counts them (grapheme clusters: an emoji sequence is one),
 * never cut inside one, and at most `max` × 16 UTF-16 units, so stacked marks cannot make it long.
 */
function cut(s: string, max: number): string {
  if (s.length <= max) return s; // UTF-16 length >= graphemes: short strings are done
  const budget = max * MAX_UNITS_PER_CHAR;
  const head = s.slice(0, budget);
  let count = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(head)) {
    // The last grapheme of a cut head may be a piece of a longer one.
    if (count === max || (head.length < s.length && index + segment.length === head.length)) break;
    count++;
    end = index + segment.length;
  }
  return s.slice(0, end);
}

/** `s` cut to `max` characters as cut() does, its last one an ellipsis when anything was cut. */
export function cutMarked(s: string, max: number): string {
  const kept = cut(s, max);
  return kept === s ? s : `${cut(kept, max - 1).trimEnd()}…`;
}

/**
 * Raw post text cut to what could ever be shown: capPost keeps 25,000 code points of the text
 * shown, and each takes at most ten of the raw text after the display range's start (an
 * HTML-encoded character, or a link's address shown shorter). A hostile body's megabytes past
 * that are never searched for entities or built into text.
 */
export function cutRawText(raw: string, range?: readonly [number, number]): string {
  const reach = Math.max(0, range?.[0] ?? 0) + 10 * (POST_LIMITS.textChars + 1);
  return raw.length <= reach ? raw : cutCodePoints(raw, reach);
}

/** The first `max` code points of `s`, ending on a grapheme boundary. */
function cutCodePoints(s: string, max: number): string {
  let at = 0;
  for (let n = 0; n < max && at < s.length; n++) at += (s.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
  if (at >= s.length) return s;
  // The last boundary at or before `at`, found in a short window around it.
  const from = Math.max(0, at - 64);
  let boundary = from;
  for (const { index } of graphemes.segment(s.slice(from, at + 64))) {
    if (from + index > at) break;
    boundary = from + index;
  }
  return s.slice(0, boundary > 0 ? boundary : at);
}

// twitter-text's weights (its v3 configuration, which X counts posts by): a character of these
// ranges (Latin to Georgian, general punctuation) weighs 1 and any other 2; a link weighs 23, the
// length of the t.co address X replaces it with; an emoji sequence weighs 2 whole.
const LIGHT: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
function weighsOne(c: string): boolean {
  const point = c.codePointAt(0) ?? 0;
  return LIGHT.some(([from, to]) => point >= from && point <= to);
}
const URL_WEIGHT = 23;
// An emoji sequence (a flag, a keycap, a pictograph with its modifiers, selectors, tags and
// joined pictographs), a mark, or any other code point. Looser than X's list of sequences, so a
// sequence never weighs more here than there (a lone © weighs as a character). X weighs a text
// after composing it (NFC): marks weigh nothing here, so decomposed text weighs no more than there.
const X_UNITS =
  /(\p{RI}\p{RI}?|[#*0-9]\ufe0f?\u20e3|\p{Extended_Pictographic}(?:\p{EMod}|\ufe0f|\u20e3|[\u{e0020}-\u{e007f}]|\u200d\p{Extended_Pictographic})*)|(\p{M})|[\s\S]/gu;

/**
 * The number of code points of `text` that fit X's weighted length `max` (all of them when it
 * fits): the weight X counts is at least this count's, so no post X accepted is cut. Links are
 * the `url` entities among `entities` (code point ranges).
 */
export function xWeightedEnd(text: string, max: number, entities: ReadonlyArray<Entity> = []): number {
  const linkEnds = new Map(entities.filter((e) => e.type === 'url').map((l) => [l.start, l.end]));
  let weight = 0;
  let points = 0;
  let inLinkUntil = 0;
  for (const [unit, emoji, mark] of text.matchAll(X_UNITS)) {
    const linkEnd = points >= inLinkUntil ? linkEnds.get(points) : undefined;
    if (linkEnd !== undefined) {
      inLinkUntil = linkEnd;
      weight += URL_WEIGHT;
    } else if (points >= inLinkUntil && !mark) weight += weighsOne(unit) && (!emoji || unit.length === 1) ? 1 : 2;
    if (weight > max) return points;
    points += emoji ? Array.from(unit).length : 1;
  }
  return points;
}

/** A line of text (a name, a label, a title): without controls, a line break and the blanks around it read as one space. */
function oneLine(s: string): string {
  const text = dropControls(s);
  if (!text.includes('\n')) return text;
  // Split, not a regex: a pattern of blanks around a break retries from every blank of a long run.
  const lines = text.split('\n');
  return lines
    .map((line, i) => (i > 0 ? line.trimStart() : line))
    .map((line, i) => (i < lines.length - 1 ? line.trimEnd() : line))
    .filter((line) => line !== '')
    .join(' ');
}

function capOptional(s: string | undefined, max: number, clean = dropControls): string | undefined {
  return s === undefined ? undefined : cutMarked(clean(s), max);
}

const urlFits = (u: string | undefined): boolean => u === undefined || u.length <= POST_LIMITS.urlChars;

/**
 * Holds a normalized post to X's limits: text cut at X's weighted 25,000 (then marked truncated),
 * at most 4 media and 4 poll choices, names, labels and alt texts cut to X's lengths (ending in
 * an ellipsis, so a reader sees the cut) and without controls, entities beyond the text or the
 * ceiling dropped, one level of quote. Pure; the post is not modified.
 */
export function capPost(post: Post, depth = 0): Post {
  const L = POST_LIMITS;
  const chars = Array.from(post.text);
  const held = chars.length > L.textChars ? cutCodePoints(post.text, L.textChars) : post.text;
  // A text that fits is returned whole by cutCodePoints.
  const text = cutCodePoints(held, xWeightedEnd(held, L.textChars, post.entities));
  const textCut = text !== post.text;
  const length = Array.from(text).length;
  const entities: Entity[] = post.entities
    .filter((e) => e.end <= length && (e.type !== 'url' || urlFits(e.url)))
    .slice(0, L.entities);
  const out: Post = {
    ...post,
    author: {
      ...post.author,
      // The handle is not cut: the post's URL is built from it. The body schemas hold it to X's
      // characters and length (schema.ts).
      name: cutMarked(oneLine(post.author.name), L.nameChars),
    },
    text,
    entities,
    createdAt: capDate(post.createdAt),
    counts: capCounts({ ...post.counts }),
    media: post.media
      .filter((m) => (m.type === 'photo' ? urlFits(m.url) : urlFits(m.poster) && urlFits(m.mp4)))
      .slice(0, L.media)
      .map((m) => {
        const held = m.alt === undefined ? m : { ...m, alt: cutMarked(dropControls(m.alt), L.altChars) };
        if (held.type !== 'video' || held.durationMs === undefined) return held;
        const { durationMs, ...rest } = held;
        const ms = capCount(durationMs);
        return ms === undefined ? rest : { ...rest, durationMs: Math.min(ms, L.videoMs) };
      }),
    truncated: post.truncated || textCut,
  };
  if (!urlFits(out.author.avatarUrl)) delete out.author.avatarUrl;
  if (post.poll) {
    const { totalVotes, ...poll } = post.poll;
    // Shares are of the votes shown: with choices left out, the total is theirs (the sum).
    const whole = post.poll.choices.length <= L.pollChoices;
    out.poll = {
      ...poll,
      ...(whole ? capCounts({ totalVotes }) : {}),
      choices: post.poll.choices.slice(0, L.pollChoices).map(({ votes, ...c }) => ({
        ...c,
        label: cutMarked(oneLine(c.label), L.pollLabelChars),
        ...capCounts({ votes }),
      })),
    };
  }
  if (post.card) {
    if (!urlFits(post.card.url) || !urlFits(post.card.image?.url)) delete out.card;
    else
      out.card = {
        ...post.card,
        title: capOptional(post.card.title, L.cardTextChars, oneLine),
        description: capOptional(post.card.description, L.cardTextChars),
        domain: capOptional(post.card.domain, L.cardTextChars, oneLine),
      };
    for (const k of ['title', 'description', 'domain'] as const) if (out.card?.[k] === undefined) delete out.card?.[k];
  }
  // A reply's handle is linked and drawn as X writes handles; one X could not have is left out.
  if (post.replyTo && !HANDLE.test(post.replyTo.handle)) delete out.replyTo;
  if (post.quoted) {
    if (depth > 0) delete out.quoted;
    else out.quoted = capPost(post.quoted, depth + 1);
  }
  return out;
}

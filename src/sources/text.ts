import type { Entity } from './post.ts';

/** An entity as sources report it: code point offsets into the raw (HTML-encoded) text. */
export type RawEntity =
  | { type: 'url'; start: number; end: number; url: string; display: string }
  | { type: 'mention'; start: number; end: number; handle: string }
  | { type: 'hashtag'; start: number; end: number; tag: string }
  | { type: 'cashtag'; start: number; end: number; symbol: string }
  /** Removed from the visible text (the trailing pic.x.com link). */
  | { type: 'media'; start: number; end: number };

// C0 controls but tab and line feed, DEL, C1 controls and the interlinear annotation marks: X
// shows none of them, fonts draw them as boxes, and a terminal showing the Markdown obeys them (ESC).
const CONTROLS_CLASS = String.raw`[[\p{Cc}\ufff9-\ufffb]--[\t\n]]`;
const CONTROL = new RegExp(CONTROLS_CLASS, 'v');
const CONTROLS = new RegExp(CONTROLS_CLASS, 'gv');

// Line breaks other than LF: CRLF, a lone CR, NEL and the line and paragraph separators. The
// engine breaks at the separators and a browser's pre-wrap draws them as spaces: all are one LF.
const OTHER_BREAK = /[\r\u0085\u2028\u2029]/;
const OTHER_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

/** `s` without the control characters X does not show; every kind of line break as LF. */
export function dropControls(s: string): string {
  const lines = OTHER_BREAK.test(s) ? s.replace(OTHER_BREAKS, '\n') : s;
  return CONTROL.test(lines) ? lines.replace(CONTROLS, '') : lines;
}

// Marks one character may carry (joiners between them too): stacked "Zalgo" letters use a few
// dozen. The layout engine's time grows with the square of a cluster's length (25,000 accents on
// one letter: over 10 s).
const MAX_MARKS = 32;
const MARK_RUN = new RegExp(`((?:\\p{M}|[\\u200c\\u200d]){${MAX_MARKS}})(?:\\p{M}|[\\u200c\\u200d])+`, 'gu');
// Other characters that join one grapheme however many follow: conjoining Hangul jamo of one kind
// (an old syllable has at most three), prepended marks (۝ before its digits) and consonants linked
// by a virama (a conjunct has at most four or five). Hundreds in a row were one cluster no line
// could break, drawn across the card's padding.
const MAX_JOINED = 8;
const VIRAMA_LINK = String.raw`\p{L}[\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d]\u200d?`;
const JOINED_RUNS = [
  String.raw`[\u1100-\u115f\ua960-\ua97f]`,
  String.raw`[\u1160-\u11a7\ud7b0-\ud7c6]`,
  String.raw`[\u11a8-\u11ff\ud7cb-\ud7fb]`,
  String.raw`[\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}]`,
  `(?:${VIRAMA_LINK})`,
].map((one) => new RegExp(`((?:${one}){${MAX_JOINED}})(?:${one})+`, 'gu'));

/**
 * Post text as X shows it and a card can draw: dropControls(), at most 32 marks in a row and at
 * most 8 of the other joining characters.
 */
export function holdText(s: string): string {
  const held = dropControls(s).replace(MARK_RUN, '$1');
  return JOINED_RUNS.reduce((text, run) => text.replace(run, '$1'), held);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeHtmlEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const cp = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * Builds the visible text from the raw text: only the display range, HTML entities decoded,
 * URLs shown in their display form, media links removed; entity offsets recomputed against
 * the result (code points).
 */
export function buildVisibleText(
  raw: string,
  range: [number, number] | undefined,
  entities: RawEntity[],
  /** X's own APIs send &amp; &lt; &gt; encoded; FxTwitter sends decoded text. */
  htmlEncoded: boolean,
  /** Building stops once the text is longer than this: no more of it is ever shown. */
  shownMax = Number.POSITIVE_INFINITY,
): { text: string; entities: Entity[] } {
  const decode = htmlEncoded ? decodeHtmlEntities : (s: string) => s;
  const cps = Array.from(raw);
  const from = Math.max(0, Math.min(range?.[0] ?? 0, cps.length));
  const to = Math.max(from, Math.min(range?.[1] ?? cps.length, cps.length));
  const sorted = entities
    .filter((e) => e.start >= 0 && e.end > e.start && e.end <= cps.length)
    .sort((a, b) => a.start - b.start);
  let text = '';
  let length = 0;
  const out: Entity[] = [];
  const append = (s: string) => {
    text += s;
    length += Array.from(s).length;
  };
  // Text between entities as holdText() holds it (a CR left in the text drew a blank line, and in
  // Markdown began a line outside its quote). Offsets follow, as they are counted on what is appended.
  const appendText = (s: string) => append(holdText(s));
  let at = from;
  for (const e of sorted) {
    if (length > shownMax) break;
    if (e.start < at) continue; // overlapping or before the display range
    if (e.start >= to && e.type !== 'media') break;
    if (e.type === 'media') {
      if (e.start >= to) break;
      appendText(decode(cps.slice(at, e.start).join('')));
      at = Math.min(e.end, to);
      continue;
    }
    appendText(decode(cps.slice(at, e.start).join('')));
    const shown = holdText(e.type === 'url' ? e.display : decode(cps.slice(e.start, Math.min(e.end, to)).join('')));
    const start = length;
    append(shown);
    const end = length;
    if (e.type === 'url') out.push({ type: 'url', start, end, url: e.url, display: e.display });
    else if (e.type === 'mention') out.push({ type: 'mention', start, end, handle: e.handle });
    else if (e.type === 'hashtag') out.push({ type: 'hashtag', start, end, tag: e.tag });
    else out.push({ type: 'cashtag', start, end, symbol: e.symbol });
    at = Math.min(e.end, to);
  }
  if (at < to && length <= shownMax) appendText(decode(cps.slice(at, to).join('')));
  // A removed trailing media link leaves the space before it behind. trimEnd, not /\s+$/: that
  // regex retries from every blank of a long run (quadratic; 50,000 blanks blocked for seconds).
  const trimmed = text.trimEnd();
  const cut = Array.from(trimmed).length;
  return { text: trimmed, entities: out.filter((e) => e.end <= cut) };
}

// What a hashtag holds, as X's own pattern (twitter-text): letters, marks (a Hindi or Arabic word
// is letters and vowel signs), decimal digits, joiners and a few marks used inside words.
const TAG_CHAR = String.raw`[\p{L}\p{M}\p{Nd}_\u200c\u200d\ua67e\u05be\u05f3\u05f4\uff5e\u301c\u309b\u309c\u30a0\u30fb\u3003\u0f0b\u0f0c\u00b7]`;
const ENTITY = new RegExp(
  [
    // A URL ends at a blank, a bracket or a quote, also when written as an HTML entity (X's own
    // APIs send text encoded), and not on trailing punctuation.
    String.raw`(https?:\/\/(?:(?!&(?:lt|gt|quot);)[^\s<>"])*(?:(?!&(?:lt|gt|quot);)[^\s<>".,;:!?)\]']))`,
    // A handle after @ or full-width ＠: letters, digits and _, at most 20 (twitter-text's limit).
    String.raw`(?<![\w@＠])[@＠]([A-Za-z0-9_]{1,20})\b`,
    // The sign is # or full-width ＃; an emoji's variation selector may come just before it, and
    // #️⃣ is the keycap emoji. A tag followed by another sign or :// is none (#tag#two, #a://b).
    // The tag is taken whole inside a lookahead and matched again by reference: the engine cannot
    // backtrack into a lookahead, so a long tag refused by what follows costs linear time, not
    // one retry per shorter split (quadratic: seconds for 25,000 letters and a #).
    String.raw`(?<!(?![\ufe0e\ufe0f])${TAG_CHAR}|[#＃&])[#＃](?![\ufe0f\u20e3])(?=(${TAG_CHAR}*[\p{L}\p{M}]${TAG_CHAR}*))\3(?![#＃]|:\/\/)`,
    String.raw`(?<![\w$])\$([A-Za-z]{1,6}(?:[._][A-Za-z]{1,2})?)(?![\w])`,
  ].join('|'),
  'gu',
);

/** Mentions, hashtags, cashtags and URLs found by pattern, for sources that send text without entities. */
export function detectEntities(text: string): RawEntity[] {
  const found: RawEntity[] = [];
  // Offsets are in code points, counted on from the last match: counting from the start each
  // time was quadratic (25,000 characters of mentions took over a second).
  let unit = 0;
  let start = 0;
  for (const m of text.matchAll(ENTITY)) {
    start += Array.from(text.slice(unit, m.index)).length;
    unit = m.index;
    const end = start + Array.from(m[0]).length;
    if (m[1]) found.push({ type: 'url', start, end, url: m[1], display: displayUrl(m[1]) });
    else if (m[2]) found.push({ type: 'mention', start, end, handle: m[2] });
    else if (m[3]) found.push({ type: 'hashtag', start, end, tag: m[3] });
    else if (m[4]) found.push({ type: 'cashtag', start, end, symbol: m[4] });
  }
  return found;
}

/**
 * The entities of `found` (detectEntities' matches: in text order, none overlapping) that overlap
 * none of `known`. One sweep over `known` sorted by start: checking each match against every known
 * entity was quadratic, and a hostile body of 2 MB of mentions held the event loop for minutes.
 */
export function selectUncovered<T extends RawEntity>(found: T[], known: readonly RawEntity[]): T[] {
  const byStart = [...known].sort((a, b) => a.start - b.start);
  const out: T[] = [];
  let next = 0;
  // The furthest end of the known entities that start before the current match ends.
  let reach = Number.NEGATIVE_INFINITY;
  for (const d of found) {
    while (next < byStart.length && byStart[next].start < d.end) reach = Math.max(reach, byStart[next++].end);
    if (reach <= d.start) out.push(d);
  }
  return out;
}

/** X's display form of a URL: no scheme, no www., cut after 26 characters with an ellipsis. */
export function displayUrl(url: string): string {
  const bare = url.replace(/^https?:\/\/(www\.)?/i, '');
  return bare.length > 26 ? `${bare.slice(0, 26)}…` : bare;
}

import { checkMediaUrl } from '../sources/media.ts';
import {
  entityUrl,
  linkUrl,
  pollTotal,
  replyUrl,
  segmentText,
  shownText,
  type Media,
  type Post,
} from '../sources/post.ts';

export interface MarkdownOptions {
  includeStats: boolean;
  includeMedia: boolean;
  includeQuoted: boolean;
}

export const DEFAULT_MARKDOWN_OPTIONS: MarkdownOptions = Object.freeze({
  includeStats: true,
  includeMedia: true,
  includeQuoted: true,
});

// Characters CommonMark may give meaning to anywhere in a line. Backslash-escaping ASCII
// punctuation is always literal in CommonMark, so escaping is safe even where not needed.
const INLINE_SPECIAL = /[\\`*_[\]<>&~|]/g;

/** Escapes text so a CommonMark renderer shows exactly these characters. */
export function escapeMarkdownInline(text: string): string {
  return text.replace(INLINE_SPECIAL, (c) => `\\${c}`);
}

/** Escapes what only means something at the start of a line (headings, lists, quotes, indents). */
function escapeLineStart(line: string): string {
  // Trailing blanks are invisible and would turn into a Markdown hard break; drop them. Found by
  // scanning: a lazy regex for this retried from every blank of a long run (quadratic).
  const blank = (c: string) => c === ' ' || c === '\t';
  let from = 0;
  while (from < line.length && blank(line[from])) from++;
  let to = line.length;
  while (to > from && blank(line[to - 1])) to--;
  if (from === to) return '';
  // Leading spaces would make an indented code block or be stripped; as references they stay text.
  const indent = line.slice(0, from).replace(/ /g, '&#32;').replace(/\t/g, '&#9;');
  let rest = line.slice(from, to);
  rest = rest.replace(/^(#{1,6})(?=\s|$)/, (h) => h.replace(/#/g, '\\#'));
  rest = rest.replace(/^([-+*])(?=\s|$)/, '\\$1');
  rest = rest.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
  rest = rest.replace(/^(=+|-+)\s*$/, (u) => u.replace(/([=-])/g, '\\$1'));
  return indent + rest;
}

// Threat model: every URL here comes from upstream data and may be built to run script when
// clicked (javascript:, data:) or to close the link and open another. A link destination is
// only ever an http(s) URL in its WHATWG serialization with every character that could end or
// reshape a CommonMark destination percent-encoded; anything else is not linked at all.
const DESTINATION_SPECIAL = /[\s()<>\\[\]"'`]/g;

/** A URL linkUrl gave, as a CommonMark link destination: what could end or reshape one percent-encoded. */
function escapeDestination(url: string): string {
  return url.replace(DESTINATION_SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The URL as a safe CommonMark link destination, or null when it is not an http(s) URL. */
function linkDestination(raw: string): string | null {
  const url = linkUrl(raw);
  return url === null ? null : escapeDestination(url);
}

/** A link to a URL linkUrl (or entityUrl, replyUrl) gave; the label alone (escaped) when there is none. */
function link(label: string, url: string | null): string {
  return url === null ? escapeOneLine(label) : `[${escapeOneLine(label)}](${escapeDestination(url)})`;
}

/** Media are linked only on X's media hosts (the ones the service itself fetches from). */
function mediaDestination(raw: string): string | null {
  const check = checkMediaUrl(raw);
  return check.ok ? linkDestination(check.url.href) : null;
}

// One formatter: Number#toLocaleString builds a new one per call.
const countFormat = new Intl.NumberFormat('en-US');

function formatCount(n: number): string {
  return countFormat.format(n);
}

export function formatUtc(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** Text that must stay on its line (a name, a label, a title): its line breaks become spaces. */
function escapeOneLine(text: string): string {
  return escapeMarkdownInline(text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim());
}

function authorLine(post: Post): string {
  return `**@${escapeMarkdownInline(post.author.handle)}** (${escapeOneLine(post.author.name)}) · ${formatUtc(post.createdAt)}`;
}

/** The post text as Markdown: entities as links, specials escaped, every line break kept. */
function textBlock(post: Post): string {
  let md = '';
  for (const seg of segmentText(post))
    md += seg.type === 'text' ? escapeMarkdownInline(seg.text) : link(seg.text, entityUrl(seg));
  // Paragraph breaks stay blank lines; single breaks become hard breaks (a trailing backslash).
  return md
    .split(/\n{2,}/)
    .map((para) => para.split('\n').map(escapeLineStart).join('\\\n'))
    .filter((p) => p.trim() !== '')
    .join('\n\n');
}

function mediaLines(media: Media[]): string[] {
  let photo = 0;
  return media.flatMap((m) => {
    if (m.type === 'photo') {
      const to = mediaDestination(m.url);
      return to === null ? [] : [`![Image ${++photo}](${to})`];
    }
    const label = m.type === 'video' ? 'Video' : 'GIF';
    const to = (m.mp4 && mediaDestination(m.mp4)) || (m.poster && mediaDestination(m.poster)) || null;
    return to === null ? [] : [`[${label}](${to})`];
  });
}

function pollLines(post: Post): string[] {
  const poll = post.poll!;
  const total = pollTotal(poll);
  return poll.choices.map((c) => {
    const label = escapeOneLine(c.label);
    if (c.votes === undefined) return `- ${label}`;
    const pct = total > 0 ? ((c.votes / total) * 100).toFixed(1) : '0.0';
    return `- ${label}: ${formatCount(c.votes)} ${c.votes === 1 ? 'vote' : 'votes'} (${pct}%)`;
  });
}

function statsLine(post: Post): string | null {
  const c = post.counts;
  const parts: string[] = [];
  if (c.replies !== undefined) parts.push(`Replies: ${formatCount(c.replies)}`);
  if (c.reposts !== undefined) parts.push(`Retweets: ${formatCount(c.reposts)}`);
  if (c.likes !== undefined) parts.push(`Likes: ${formatCount(c.likes)}`);
  if (c.views !== undefined) parts.push(`Views: ${formatCount(c.views)}`);
  return parts.length ? parts.join(' · ') : null;
}

/** The card's "Replying to @handle", linked to the post replied to when its id is known. */
function replyLine(post: Post): string | null {
  const to = post.replyTo;
  if (!to) return null;
  return `Replying to ${link(`@${to.handle}`, replyUrl(to))}`;
}

function bodyBlocks(post: Post, options: MarkdownOptions): string[] {
  const blocks = [authorLine(post)];
  // A reply's text often leaves out whom it answers (X drops the leading @mentions): say it, as the card does.
  const reply = replyLine(post);
  if (reply) blocks.push(reply);
  const text = textBlock({ ...post, ...shownText(post) });
  if (text) blocks.push(text);
  // A list, one item per choice: each label is escaped, so none can start another block.
  if (post.poll) blocks.push(pollLines(post).join('\n'));
  const media = options.includeMedia ? mediaLines(post.media) : [];
  if (media.length) blocks.push(media.join('\\\n'));
  if (post.card?.title) blocks.push(link(post.card.title, linkUrl(post.card.url)));
  return blocks;
}

/** Post → Markdown (DESIGN.md section 9). Pure. */
export function renderMarkdown(post: Post, options: MarkdownOptions = DEFAULT_MARKDOWN_OPTIONS): string {
  const blocks = bodyBlocks(post, options);
  if (options.includeQuoted && post.quoted) {
    const inner = bodyBlocks(post.quoted, options).join('\n\n');
    blocks.push(
      inner
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n'),
    );
  }
  if (options.includeStats) {
    const stats = statsLine(post);
    if (stats) blocks.push(stats);
  }
  blocks.push(post.url);
  return `${blocks.join('\n\n')}\n`;
}

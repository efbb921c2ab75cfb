// Our own model of a post: what every renderer reads. Sources normalize into this and nothing
// upstream-shaped travels further.

export type Verification = 'none' | 'blue' | 'business' | 'government';

export interface Author {
  id?: string;
  name: string;
  handle: string;
  /** Largest known variant of the avatar; fetched at the size it is drawn. */
  avatarUrl?: string;
  verification: Verification;
  /** Organisations have square avatars on X. */
  avatarShape: 'circle' | 'square';
}

/** Entity spans are code point offsets into Post.text, end exclusive. */
export type Entity =
  | { type: 'url'; start: number; end: number; url: string; display: string }
  | { type: 'mention'; start: number; end: number; handle: string }
  | { type: 'hashtag'; start: number; end: number; tag: string }
  | { type: 'cashtag'; start: number; end: number; symbol: string };

export type Media =
  | { type: 'photo'; url: string; width?: number; height?: number; alt?: string }
  // A video or GIF without a poster still shows as a tile (a placeholder under the play button).
  | { type: 'video'; poster?: string; width?: number; height?: number; durationMs?: number; mp4?: string; alt?: string }
  | { type: 'gif'; poster?: string; width?: number; height?: number; mp4?: string; alt?: string };

export interface PollChoice {
  label: string;
  votes?: number;
}

export interface Poll {
  choices: PollChoice[];
  totalVotes?: number;
  endsAt?: string;
  final?: boolean;
  /** Set only for a render, by pollAsOf: "2 days left" while the poll is open. */
  timeLeft?: string;
}

const MINUTE = 60_000;

/** X's label for an open poll's time left: whole days, else hours, else minutes (at least one). */
export function formatTimeLeft(ms: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'} left`;
  if (ms >= 1440 * MINUTE) return unit(Math.floor(ms / (1440 * MINUTE)), 'day');
  if (ms >= 60 * MINUTE) return unit(Math.floor(ms / (60 * MINUTE)), 'hour');
  return unit(Math.max(1, Math.floor(ms / MINUTE)), 'minute');
}

/** The poll as drawn at `now`: open with its time left, or final once past its end; unchanged without an end. */
function pollAt(poll: Poll | undefined, now: number): Poll | undefined {
  const end = poll?.endsAt ? Date.parse(poll.endsAt) : Number.NaN;
  if (!poll || poll.final || Number.isNaN(end)) return poll;
  return end > now ? { ...poll, timeLeft: formatTimeLeft(end - now) } : { ...poll, final: true };
}

/** What a drawn poll says of its time: equal labels draw the same card. */
const timeLabel = (poll: Poll | undefined) => (poll?.final ? 'final' : (poll?.timeLeft ?? ''));

/**
 * The post as a card drawn at `now` shows it: an open poll, its own or its quoted post's, with its
 * time left, one past its end as final. Done per render, not when fetched, since a fetched post is
 * cached for minutes.
 */
export function pollAsOf(post: Post, now: number): Post {
  const poll = pollAt(post.poll, now);
  const quotedPoll = pollAt(post.quoted?.poll, now);
  if (poll === post.poll && quotedPoll === post.quoted?.poll) return post;
  // The same object while the labels stand: what is keyed by the post (its cache keys) stays found.
  const last = asOf.get(post);
  if (last && timeLabel(last.poll) === timeLabel(poll) && timeLabel(last.quoted?.poll) === timeLabel(quotedPoll))
    return last;
  const drawn: Post = {
    ...post,
    ...(poll ? { poll } : {}),
    ...(post.quoted && quotedPoll ? { quoted: { ...post.quoted, poll: quotedPoll } } : {}),
  };
  asOf.set(post, drawn);
  return drawn;
}

const asOf = new WeakMap<Post, Post>();

/**
 * The votes a poll's shares are of: its total, unless its choices add up to more (an upstream
 * total older than its counts), so that no share is over 100 %.
 */
export function pollTotal(poll: Poll): number {
  return Math.max(
    poll.totalVotes ?? 0,
    poll.choices.reduce((sum, c) => sum + (c.votes ?? 0), 0),
  );
}

export interface LinkCard {
  url: string;
  title?: string;
  description?: string;
  domain?: string;
  image?: { url: string; width?: number; height?: number };
  /** summary_large_image: image on top; otherwise a thumbnail at the side. */
  large: boolean;
}

export interface Counts {
  replies?: number;
  reposts?: number;
  likes?: number;
  quotes?: number;
  bookmarks?: number;
  views?: number;
}

export interface Post {
  id: string;
  url: string;
  author: Author;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** The visible text: HTML entities decoded, t.co links replaced by their display form, the trailing media link dropped. */
  text: string;
  entities: Entity[];
  media: Media[];
  quoted?: Post;
  replyTo?: { handle: string; statusId?: string };
  poll?: Poll;
  card?: LinkCard;
  counts: Counts;
  lang?: string;
  /** True when the text is a long (note) post; `truncated` when only its first part was available. */
  isNote: boolean;
  truncated: boolean;
  source: 'fxtwitter' | 'syndication';
}

export type TextSegment = { type: 'text'; text: string } | (Entity & { text: string });

/**
 * The text to show of a post whose source gave only its first part (`truncated`: a long post from
 * the syndication endpoint, or past X's own limit): it ends with an ellipsis, as X ends a cut text,
 * so that nobody takes it for the whole post. Any other post's text as it is.
 */
export function shownText(post: Pick<Post, 'text' | 'entities' | 'truncated'>): Pick<Post, 'text' | 'entities'> {
  if (!post.truncated || post.text === '' || post.text.endsWith('…')) return post;
  return { text: `${post.text}…`, entities: post.entities };
}

/** Splits the text into plain runs and entity runs, in order. */
export function segmentText(post: Pick<Post, 'text' | 'entities'>): TextSegment[] {
  const cps = Array.from(post.text);
  const out: TextSegment[] = [];
  let at = 0;
  for (const e of [...post.entities].sort((a, b) => a.start - b.start)) {
    if (e.start < at || e.end > cps.length || e.end <= e.start) continue;
    if (e.start > at) out.push({ type: 'text', text: cps.slice(at, e.start).join('') });
    out.push({ ...e, text: cps.slice(e.start, e.end).join('') });
    at = e.end;
  }
  if (at < cps.length) out.push({ type: 'text', text: cps.slice(at).join('') });
  return out;
}

export function postUrl(handle: string, id: string): string {
  return `https://x.com/${handle}/status/${id}`;
}

/**
 * Where an entity leads on X: a profile, a hashtag's or cashtag's search, or the link's own URL.
 * Only http(s) URLs without credentials; null for anything else (`javascript:`, `data:`).
 */
export function entityUrl(entity: Entity): string | null {
  return linkUrl(
    entity.type === 'mention'
      ? `https://x.com/${encodeURIComponent(entity.handle)}`
      : entity.type === 'hashtag'
        ? `https://x.com/hashtag/${encodeURIComponent(entity.tag)}`
        : entity.type === 'cashtag'
          ? `https://x.com/search?q=${encodeURIComponent(`$${entity.symbol}`)}`
          : entity.url,
  );
}

/** Where "Replying to @handle" leads: the post replied to when its id is known, else the profile. */
export function replyUrl(to: NonNullable<Post['replyTo']>): string | null {
  const handle = encodeURIComponent(to.handle);
  return linkUrl(to.statusId ? postUrl(handle, encodeURIComponent(to.statusId)) : `https://x.com/${handle}`);
}

/** `raw` as a link's URL: an http(s) URL without credentials, or null (`javascript:`, `data:`...). */
export function linkUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  return url.href;
}

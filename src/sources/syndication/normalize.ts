import type { Author, Counts, LinkCard, Media, Poll, Post, Verification } from '../post.ts';
import { capPost, cutRawText, dropNestedQuotes, POST_LIMITS } from '../limits.ts';
import { postUrl } from '../post.ts';
import {
  buildVisibleText,
  decodeHtmlEntities,
  detectEntities,
  displayUrl,
  type RawEntity,
  selectUncovered,
} from '../text.ts';
import { checkSynTweet, type SynCard, type SynMediaDetails, type SynTweet, type SynUser } from './types.ts';

export type SyndicationParse =
  | { kind: 'found'; post: Post }
  | { kind: 'not_found'; detail: string }
  | { kind: 'malformed'; detail: string };

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

function verificationOf(user: SynUser): Verification {
  if (user.verified_type === 'Government') return 'government';
  if (user.verified_type === 'Business') return 'business';
  return user.is_blue_verified || user.verified ? 'blue' : 'none';
}

function authorOf(user: SynUser): Author | null {
  if (!user.screen_name) return null;
  return {
    id: user.id_str,
    name: user.name ?? user.screen_name,
    handle: user.screen_name,
    avatarUrl: user.profile_image_url_https,
    verification: verificationOf(user),
    avatarShape: user.profile_image_shape === 'Square' ? 'square' : 'circle',
  };
}

function rawEntitiesOf(t: SynTweet): RawEntity[] {
  const e = t.entities ?? {};
  const out: RawEntity[] = [];
  for (const u of e.urls ?? []) {
    if (u.indices && u.expanded_url) {
      out.push({
        type: 'url',
        start: u.indices[0],
        end: u.indices[1],
        url: u.expanded_url,
        display: u.display_url ?? u.expanded_url,
      });
    }
  }
  for (const m of e.user_mentions ?? []) {
    if (m.indices && m.screen_name)
      out.push({ type: 'mention', start: m.indices[0], end: m.indices[1], handle: m.screen_name });
  }
  for (const h of e.hashtags ?? []) {
    if (h.indices && h.text) out.push({ type: 'hashtag', start: h.indices[0], end: h.indices[1], tag: h.text });
  }
  for (const s of e.symbols ?? []) {
    if (s.indices && s.text) out.push({ type: 'cashtag', start: s.indices[0], end: s.indices[1], symbol: s.text });
  }
  // Media links are removed from the text; the media entity and mediaDetails both mark them.
  for (const m of [...(e.media ?? []), ...(t.mediaDetails ?? [])]) {
    if (m.indices) out.push({ type: 'media', start: m.indices[0], end: m.indices[1] });
  }
  if (!t.entities) {
    // A body without entities (one written by hand) has its links found in the text, as an
    // FxTwitter body's are; a media link stays a media link.
    for (const d of selectUncovered(detectEntities(t.text ?? ''), out)) {
      // The text is HTML-encoded: a link's address and what it shows are read decoded.
      const url = d.type === 'url' ? decodeHtmlEntities(d.url) : '';
      out.push(d.type === 'url' ? { ...d, url, display: displayUrl(url) } : d);
    }
  }
  return out;
}

function bestMp4(
  variants: { url?: string; bitrate?: number; content_type?: string }[] | undefined,
): string | undefined {
  return (variants ?? [])
    .filter((v) => v.content_type === 'video/mp4' && v.url)
    .sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0))[0]?.url;
}

function mediaOf(t: SynTweet): Media[] {
  const details: SynMediaDetails[] = t.mediaDetails ?? [];
  if (details.length > 0) {
    return details.flatMap((m): Media[] => {
      const size = { width: m.original_info?.width, height: m.original_info?.height };
      const alt = m.ext_alt_text || undefined;
      if (m.type === 'photo') return m.media_url_https ? [{ type: 'photo', url: m.media_url_https, ...size, alt }] : [];
      // A video or GIF without a poster is still shown, as a placeholder tile, when it has an MP4.
      const poster = m.media_url_https || undefined;
      const mp4 = bestMp4(m.video_info?.variants);
      if (!poster && !mp4) return [];
      if (m.type === 'animated_gif') return [{ type: 'gif', poster, ...size, mp4, alt }];
      if (m.type === 'video') {
        return [{ type: 'video', poster, ...size, durationMs: m.video_info?.duration_millis, mp4, alt }];
      }
      return [];
    });
  }
  // Cut-down captures carry only `photos` / `video`.
  const photos: Media[] = (t.photos ?? []).flatMap((p) =>
    p.url
      ? [
          {
            type: 'photo' as const,
            url: p.url,
            width: p.width,
            height: p.height,
            alt: p.accessibilityLabel || undefined,
          },
        ]
      : [],
  );
  if (photos.length) return photos;
  const mp4 = t.video?.variants
    ?.filter((v) => v.type === 'video/mp4' && v.src)
    .map((v) => v.src!)
    .at(-1);
  if (t.video && (t.video.poster || mp4)) {
    return [{ type: 'video', poster: t.video.poster || undefined, durationMs: t.video.durationMs, mp4 }];
  }
  return [];
}

function str(card: SynCard, key: string): string | undefined {
  return card.binding_values?.[key]?.string_value || undefined;
}

function pollOf(card: SynCard | undefined): Poll | undefined {
  const m = card?.name && /^poll(\d)choice/.exec(card.name);
  if (!card || !m) return undefined;
  const choices = Array.from({ length: Number(m[1]) }, (_, i) => {
    const label = str(card, `choice${i + 1}_label`);
    const count = str(card, `choice${i + 1}_count`);
    return label === undefined
      ? null
      : { label, votes: count !== undefined && /^\d+$/.test(count) ? Number(count) : undefined };
  }).filter((c): c is { label: string; votes: number | undefined } => c !== null);
  if (choices.length === 0) return undefined;
  const known = choices.every((c) => c.votes !== undefined);
  return {
    choices,
    totalVotes: known ? choices.reduce((s, c) => s + (c.votes ?? 0), 0) : undefined,
    endsAt: str(card, 'end_datetime_utc'),
    final: card.binding_values?.counts_are_final?.boolean_value,
  };
}

const CARD_IMAGES = [
  'photo_image_full_size_large',
  'summary_photo_image_large',
  'thumbnail_image_large',
  'thumbnail_image',
  'player_image_large',
  'player_image',
];

function cardOf(t: SynTweet): LinkCard | undefined {
  const a = t.article;
  if (a && (a.title || a.rest_id)) {
    const cover = a.cover_media?.media_info;
    return {
      url: `https://x.com/i/article/${a.rest_id ?? ''}`,
      title: a.title,
      description: a.preview_text,
      domain: 'x.com',
      image: cover?.original_img_url
        ? { url: cover.original_img_url, width: cover.original_img_width, height: cover.original_img_height }
        : undefined,
      large: true,
    };
  }
  const card = t.card;
  if (
    !card?.name ||
    /^poll\dchoice/.test(card.name) ||
    !/^(summary|summary_large_image|player|.*:?link.*)$/.test(card.name)
  )
    return undefined;
  const expanded = t.entities?.urls?.find((u) => u.url === card.url)?.expanded_url ?? card.url;
  if (!expanded) return undefined;
  const imageKey = CARD_IMAGES.find((k) => card.binding_values?.[k]?.image_value?.url);
  const img = imageKey ? card.binding_values?.[imageKey]?.image_value : undefined;
  return {
    url: expanded,
    title: str(card, 'title'),
    description: str(card, 'description'),
    domain: str(card, 'vanity_url') ?? str(card, 'domain'),
    image: img?.url ? { url: img.url, width: img.width, height: img.height } : undefined,
    large: card.name === 'summary_large_image' || card.name === 'player',
  };
}

/** Pure: a syndication body to a Post, or why not. */
export function normalizeSyndication(body: unknown, depth = 0): SyndicationParse {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { kind: 'malformed', detail: 'body is not an object' };
  // The quoted post was checked with the body it came in.
  let t = body as SynTweet;
  if (depth === 0) {
    const checked = checkSynTweet(dropNestedQuotes(body, 'quoted_tweet'));
    if (!checked.ok) return { kind: 'malformed', detail: `body does not fit at ${checked.path}: ${checked.message}` };
    t = checked.value;
  }
  if (t.__typename === 'TweetTombstone' || t.tombstone)
    return { kind: 'not_found', detail: 'the post is unavailable (tombstone)' };
  if (Object.keys(t).length === 0) return { kind: 'not_found', detail: 'the post is unavailable (empty body)' };
  if (!t.user) return { kind: 'not_found', detail: 'the post has no author (suspended or withheld)' };
  if (typeof t.id_str !== 'string' || !/^\d{1,19}$/.test(t.id_str))
    return { kind: 'malformed', detail: 'id_str missing' };
  if (typeof t.text !== 'string') return { kind: 'malformed', detail: 'text missing' };
  const author = authorOf(t.user);
  if (!author) return { kind: 'not_found', detail: 'the post has no author handle' };
  const created = t.created_at ? Date.parse(t.created_at) : NaN;
  if (Number.isNaN(created)) return { kind: 'malformed', detail: 'created_at missing or invalid' };

  const raw = { ...t, text: cutRawText(t.text, t.display_text_range) };
  const { text, entities } = buildVisibleText(
    raw.text,
    raw.display_text_range,
    rawEntitiesOf(raw),
    true,
    POST_LIMITS.textChars,
  );
  const counts: Counts = {};
  if (isCount(t.reply_count)) counts.replies = t.reply_count;
  else if (isCount(t.conversation_count)) counts.replies = t.conversation_count;
  if (isCount(t.retweet_count)) counts.reposts = t.retweet_count;
  if (isCount(t.favorite_count)) counts.likes = t.favorite_count;
  if (isCount(t.quote_count)) counts.quotes = t.quote_count;

  let quoted: Post | undefined;
  if (t.quoted_tweet && depth === 0) {
    const q = normalizeSyndication(t.quoted_tweet, depth + 1);
    if (q.kind === 'found') quoted = q.post;
  }
  const replyHandle = t.in_reply_to_screen_name ?? t.parent?.user?.screen_name;
  const post: Post = {
    id: t.id_str,
    url: postUrl(author.handle, t.id_str),
    author,
    createdAt: new Date(created).toISOString(),
    text,
    entities,
    media: mediaOf(t),
    quoted,
    replyTo: replyHandle
      ? { handle: replyHandle, statusId: t.in_reply_to_status_id_str ?? t.parent?.id_str }
      : undefined,
    poll: pollOf(t.card),
    card: cardOf(t),
    counts,
    lang: t.lang,
    isNote: Boolean(t.note_tweet),
    truncated: Boolean(t.note_tweet),
    source: 'syndication',
  };
  const found = dropUndefined(post);
  return { kind: 'found', post: depth === 0 ? capPost(found) : found };
}

/** Keeps cached/serialized posts free of `key: undefined` noise. */
export function dropUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

import type { Author, Counts, LinkCard, Media, Poll, Post, Verification } from '../post.ts';
import { capPost, cutRawText, dropNestedQuotes, POST_LIMITS } from '../limits.ts';
import { postUrl } from '../post.ts';
import { dropUndefined } from '../syndication/normalize.ts';
import { buildVisibleText, detectEntities, displayUrl, holdText, type RawEntity, selectUncovered } from '../text.ts';
import { checkFxResponse, type FxAuthor, type FxMedia, type FxTweet } from './types.ts';

export type FxParse =
  | { kind: 'found'; post: Post }
  | { kind: 'not_found'; detail: string }
  | { kind: 'failed'; detail: string };

const count = (n: number | null | undefined): number | undefined =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;

function verificationOf(a: FxAuthor): Verification {
  const v = a.verification;
  if (!v?.verified) return 'none';
  if (v.type === 'government') return 'government';
  if (v.type === 'business') return 'business';
  return 'blue';
}

function authorOf(a: FxAuthor | undefined): Author | null {
  if (!a?.screen_name) return null;
  const verification = verificationOf(a);
  return {
    id: a.id,
    name: a.name ?? a.screen_name,
    handle: a.screen_name,
    avatarUrl: a.avatar_url ?? undefined,
    verification,
    // FxTwitter does not send the avatar shape; organisations (gold check) have square avatars on X.
    avatarShape: a.profile_image_shape
      ? a.profile_image_shape === 'Square'
        ? 'square'
        : 'circle'
      : verification === 'business'
        ? 'square'
        : 'circle',
  };
}

function textOf(t: FxTweet): { text: string; entities: Post['entities'] } {
  const raw = t.raw_text?.text
    ? { ...t.raw_text, text: cutRawText(t.raw_text.text, t.raw_text.display_text_range) }
    : null;
  if (raw) {
    const entities: RawEntity[] = [];
    for (const f of raw.facets ?? []) {
      if (!f.indices) continue;
      const [start, end] = f.indices;
      switch (f.type) {
        case 'url':
          if (f.replacement)
            entities.push({
              type: 'url',
              start,
              end,
              url: f.replacement,
              display: f.display ?? displayUrl(f.replacement),
            });
          break;
        case 'media':
          entities.push({ type: 'media', start, end });
          break;
        case 'mention': {
          const handle = (f.original ?? f.replacement ?? '').replace(/^@/, '');
          if (handle) entities.push({ type: 'mention', start, end, handle });
          break;
        }
        case 'hashtag':
          entities.push({ type: 'hashtag', start, end, tag: (f.original ?? '').replace(/^#/, '') });
          break;
        case 'symbol':
        case 'cashtag':
          entities.push({ type: 'cashtag', start, end, symbol: (f.original ?? '').replace(/^\$/, '') });
          break;
      }
    }
    // Mentions and cashtags are not always sent as facets: find the ones between known entities.
    const found = detectEntities(raw.text).filter((d) => d.type !== 'url');
    for (const d of selectUncovered(found, entities)) entities.push(d);
    return buildVisibleText(raw.text, raw.display_text_range, entities, false, POST_LIMITS.textChars);
  }
  // Entities are found in the text as shown: a control inside a tag would end it.
  const text = holdText(cutRawText(t.text ?? '')).trimEnd();
  return buildVisibleText(text, undefined, detectEntities(text), false, POST_LIMITS.textChars);
}

function bestMp4(m: FxMedia): string | undefined {
  const candidates = [
    ...(m.formats ?? []).filter((f) => f.container === 'mp4').map((f) => ({ url: f.url, bitrate: f.bitrate ?? 0 })),
    ...(m.variants ?? [])
      .filter((v) => v.content_type === 'video/mp4')
      .map((v) => ({ url: v.url, bitrate: v.bitrate ?? 0 })),
  ].filter((c) => c.url);
  candidates.sort((a, b) => b.bitrate - a.bitrate);
  return candidates[0]?.url ?? (m.url && /\.mp4(\?|$)/.test(m.url) ? m.url : undefined);
}

function mediaOf(t: FxTweet): Media[] {
  const all = t.media?.all ?? [...(t.media?.photos ?? []), ...(t.media?.videos ?? [])];
  return all.flatMap((m): Media[] => {
    const size = { width: m.width, height: m.height };
    const alt = m.altText || undefined;
    if (m.type === 'photo' && m.url) return [{ type: 'photo', url: m.url, ...size, alt }];
    // X shows a video or GIF whose poster FxTwitter left out: keep it when it has a poster or an MP4.
    const poster = m.thumbnail_url || undefined;
    const mp4 = bestMp4(m);
    if (!poster && !mp4) return [];
    if (m.type === 'gif') return [{ type: 'gif', poster, ...size, mp4, alt }];
    if (m.type === 'video') {
      return [
        {
          type: 'video',
          poster,
          ...size,
          mp4,
          alt,
          durationMs: m.duration ? Math.round(m.duration * 1000) : undefined,
        },
      ];
    }
    return [];
  });
}

function pollOf(t: FxTweet): Poll | undefined {
  const choices = (t.poll?.choices ?? []).filter((c) => typeof c.label === 'string');
  if (choices.length === 0) return undefined;
  return {
    choices: choices.map((c) => ({ label: c.label!, votes: count(c.count) })),
    totalVotes: count(t.poll?.total_votes),
    endsAt: t.poll?.ends_at,
    final: t.poll?.time_left_en ? /final/i.test(t.poll.time_left_en) : undefined,
  };
}

function cardOf(t: FxTweet): LinkCard | undefined {
  const ext = t.media?.external;
  if (!ext?.url) return undefined;
  let domain: string | undefined;
  try {
    domain = new URL(ext.url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
  return {
    url: ext.url,
    domain,
    image: ext.thumbnail_url ? { url: ext.thumbnail_url, width: ext.width, height: ext.height } : undefined,
    large: true,
  };
}

function postOf(t: FxTweet, depth: number): Post | null {
  const author = authorOf(t.author);
  if (!author || !t.id || !/^\d{1,19}$/.test(t.id)) return null;
  const created = t.created_timestamp ? t.created_timestamp * 1000 : t.created_at ? Date.parse(t.created_at) : NaN;
  if (Number.isNaN(created)) return null;
  const { text, entities } = textOf(t);
  const counts: Counts = dropUndefined({
    replies: count(t.replies),
    reposts: count(t.retweets),
    likes: count(t.likes),
    quotes: count(t.quotes),
    bookmarks: count(t.bookmarks),
    views: count(t.views),
  });
  const quoted = t.quote && depth === 0 ? (postOf(t.quote, depth + 1) ?? undefined) : undefined;
  return dropUndefined<Post>({
    id: t.id,
    url: postUrl(author.handle, t.id),
    author,
    createdAt: new Date(created).toISOString(),
    text,
    entities,
    media: mediaOf(t),
    quoted,
    replyTo: t.replying_to ? { handle: t.replying_to, statusId: t.replying_to_status ?? undefined } : undefined,
    poll: pollOf(t),
    card: cardOf(t),
    counts,
    lang: t.lang ?? undefined,
    isNote: Boolean(t.is_note_tweet),
    truncated: false,
    source: 'fxtwitter',
  });
}

/** Pure: an FxTwitter v1 body (and its HTTP status) to a Post, or why not. */
export function normalizeFxTwitter(status: number, body: unknown): FxParse {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { kind: 'failed', detail: 'body is not an object' };
  const tweet = (body as { tweet?: unknown }).tweet;
  const checked = checkFxResponse(tweet === undefined ? body : { ...body, tweet: dropNestedQuotes(tweet, 'quote') });
  if (!checked.ok)
    return { kind: 'failed', detail: `FxTwitter: body does not fit at ${checked.path}: ${checked.message}` };
  const r = checked.value;
  const code = typeof r.code === 'number' ? r.code : status;
  // 401 PRIVATE_TWEET (protected), 404 NOT_FOUND (deleted, never existed, suspended): final answers.
  if (code === 404 || code === 401 || code === 403 || code === 410)
    return { kind: 'not_found', detail: `FxTwitter: ${r.message ?? code}` };
  if (code !== 200) return { kind: 'failed', detail: `FxTwitter: ${r.message ?? 'error'} (${code})` };
  if (!r.tweet) return { kind: 'failed', detail: 'FxTwitter: body has no tweet' };
  const post = postOf(r.tweet, 0);
  return post ? { kind: 'found', post: capPost(post) } : { kind: 'failed', detail: `FxTwitter: ${whyNoPost(r.tweet)}` };
}

/**
 * Why postOf read no post: the field at fault, named as the body names it, so that whoever wrote
 * or recorded the body (a demo post, a log line) knows what to change.
 */
function whyNoPost(t: FxTweet): string {
  // JSON.stringify gives undefined, not a string, for undefined: String() keeps this from throwing.
  const shown = (v: unknown) => String(JSON.stringify(v)).slice(0, 40);
  if (!t.id) return 'tweet.id is missing';
  if (!/^\d{1,19}$/.test(t.id)) return `tweet.id ${shown(t.id)} is not 1 to 19 digits`;
  if (!t.author?.screen_name) return 'tweet.author.screen_name is missing';
  // postOf reads created_timestamp only when it is not 0, else created_at: name the one it read.
  if (!t.created_at)
    return t.created_timestamp === undefined
      ? 'tweet.created_at (or tweet.created_timestamp) is missing'
      : `tweet.created_timestamp ${shown(t.created_timestamp)} is not a post's time (seconds since 1970, e.g. 1776009600)`;
  return `tweet.created_at ${shown(t.created_at)} is not a date (e.g. "Sun Apr 12 16:00:00 +0000 2026")`;
}

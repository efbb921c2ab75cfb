// Post → card tree, after X's own post embed. Pure: images arrive prepared in `assets`.
import type { Counts, LinkCard, Media, Poll, Post } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { badgeIcon, counterIcon, placeholderImage, playButton, xLogo } from './icons.ts';
import { inlineText, renderText, singleLine } from './text.ts';
import type { Theme } from './theme.ts';
import { box, img, span, textBlock, type El, type Style } from './tree.ts';

export const CARD_WIDTH = 550;
export const CARD_RADIUS = 16;
const PAD = 16;
const BORDER = 1;
export const INNER = CARD_WIDTH - 2 * PAD - 2 * BORDER;
const QUOTE_PAD = 12;
export const QUOTE_INNER = INNER - 2 * QUOTE_PAD - 2 * BORDER;
/** Media grids are drawn inside a 1px border: the images get the width less 2. */
const gridInner = (outer: number) => outer - 2 * BORDER;
const GRID_GAP = 2;

export interface CardContext {
  theme: Theme;
  assets: Assets;
  fontFamily: string;
}

function image(ctx: CardContext, url: string | undefined, w: number, h: number, style: Style = {}): El {
  const data = url ? ctx.assets.get(url) : null;
  return img(data ?? placeholderImage(ctx.theme.placeholder, ctx.theme.secondary, w, h), w, h, {
    objectFit: 'cover',
    ...style,
  });
}

/** A rounded box with a 1px outline; what is drawn inside is clipped to its rounded corners. */
function framed(ctx: CardContext, outer: Style, radius: number, inner: Style, ...children: Array<El | null>): El {
  return box(
    {
      border: `${BORDER}px solid ${ctx.theme.border}`,
      borderRadius: radius,
      backgroundColor: ctx.theme.background,
      overflow: 'hidden',
      ...outer,
      ...inner,
    },
    ...children,
  );
}

function formatDuration(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

// Formatters made once: toLocale*String builds a new one per call (~0.4 ms each, measured).
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const integerFormat = new Intl.NumberFormat('en-US');

function formatDate(iso: string): string {
  const d = new Date(iso);
  return `${timeFormat.format(d)} UTC · ${dateFormat.format(d)}`;
}

function shortDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

function mediaSource(m: Media): string {
  return m.type === 'photo' ? m.url : m.poster;
}

function mediaOverlay(_ctx: CardContext, m: Media, w: number, h: number): El | null {
  if (m.type === 'video') {
    const size = Math.min(64, Math.round(Math.min(w, h) * 0.4));
    return box(
      { position: 'absolute', left: 0, top: 0, width: w, height: h, alignItems: 'center', justifyContent: 'center' },
      img(playButton(), size, size),
      m.durationMs
        ? box(
            {
              position: 'absolute',
              left: 8,
              bottom: 8,
              backgroundColor: 'rgba(0,0,0,0.77)',
              color: '#fff',
              borderRadius: 4,
              padding: '0 5px',
              fontSize: 13,
              lineHeight: '20px',
              fontWeight: 700,
            },
            formatDuration(m.durationMs),
          )
        : null,
    );
  }
  if (m.type === 'gif') {
    return box(
      {
        position: 'absolute',
        left: 8,
        bottom: 8,
        backgroundColor: 'rgba(0,0,0,0.77)',
        color: '#fff',
        borderRadius: 4,
        padding: '0 5px',
        fontSize: 13,
        lineHeight: '20px',
        fontWeight: 700,
      },
      'GIF',
    );
  }
  return null;
}

/** A round (or rounded-square) avatar. */
function avatar(ctx: CardContext, url: string | undefined, size: number, radius: number): El {
  return image(ctx, url, size, size, { borderRadius: radius });
}

function tile(ctx: CardContext, m: Media, w: number, h: number): El {
  return box(
    { position: 'relative', width: w, height: h },
    image(ctx, mediaSource(m), w, h),
    mediaOverlay(ctx, m, w, h),
  );
}

/** X's grid: one item at its aspect (clamped), two side by side, three as one tall and two stacked, four as 2×2. */
export function mediaLayout(
  media: Media[],
  width: number,
): Array<{ m: Media; x: number; y: number; w: number; h: number }> {
  const items = media.slice(0, 4);
  if (items.length === 1) {
    const m = items[0];
    const ratio = m.width && m.height ? Math.min(Math.max(m.height / m.width, 0.5), 1.25) : 9 / 16;
    return [{ m, x: 0, y: 0, w: width, h: Math.round(width * ratio) }];
  }
  const height = Math.round((width * 9) / 16);
  const half = (width - GRID_GAP) / 2;
  const halfH = (height - GRID_GAP) / 2;
  const left = Math.floor(half);
  const right = width - GRID_GAP - left;
  const top = Math.floor(halfH);
  const bottom = height - GRID_GAP - top;
  if (items.length === 2)
    return items.map((m, i) => ({ m, x: i ? left + GRID_GAP : 0, y: 0, w: i ? right : left, h: height }));
  if (items.length === 3) {
    return [
      { m: items[0], x: 0, y: 0, w: left, h: height },
      { m: items[1], x: left + GRID_GAP, y: 0, w: right, h: top },
      { m: items[2], x: left + GRID_GAP, y: top + GRID_GAP, w: right, h: bottom },
    ];
  }
  return items.map((m, i) => ({
    m,
    x: i % 2 ? left + GRID_GAP : 0,
    y: i >= 2 ? top + GRID_GAP : 0,
    w: i % 2 ? right : left,
    h: i >= 2 ? bottom : top,
  }));
}

function mediaGrid(ctx: CardContext, media: Media[], outer: number, radius: number): El {
  const inner = gridInner(outer);
  const layout = mediaLayout(media, inner);
  const height = Math.max(...layout.map((l) => l.y + l.h));
  return framed(
    ctx,
    { width: outer, height: height + 2 * BORDER, marginTop: 12 },
    radius,
    { position: 'relative' },
    ...layout.map((l) =>
      box({ position: 'absolute', left: l.x, top: l.y, width: l.w, height: l.h }, tile(ctx, l.m, l.w, l.h)),
    ),
  );
}

function nameLine(ctx: CardContext, post: Post, size: number, badge: number, maxWidth: number): El {
  const v = post.author.verification;
  return box(
    { alignItems: 'center', minWidth: 0 },
    singleLine(
      { fontWeight: 700, fontSize: size, color: ctx.theme.text, lineHeight: `${size + 5}px` },
      post.author.name,
      maxWidth - (v !== 'none' ? badge + 2 : 0),
    ),
    v !== 'none' ? img(badgeIcon(v), badge, badge, { marginLeft: 2 }) : null,
  );
}

/** What the header leaves for the name and handle: the card less the avatar, the X logo and their margins. */
const HEADER_TEXT_WIDTH = INNER - 48 - 10 - 10 - 24;

function header(ctx: CardContext, post: Post): El {
  const square = post.author.avatarShape === 'square';
  return box(
    { width: INNER, alignItems: 'center' },
    avatar(ctx, post.author.avatarUrl, 48, square ? 6 : 24),
    box(
      { flexDirection: 'column', marginLeft: 10, marginRight: 10, flexGrow: 1, flexShrink: 1, minWidth: 0 },
      nameLine(ctx, post, 15, 18, HEADER_TEXT_WIDTH),
      singleLine({ fontSize: 15, color: ctx.theme.secondary, lineHeight: '20px' }, `@${post.author.handle}`),
    ),
    img(xLogo(ctx.theme.text), 24, 24),
  );
}

function replyLine(ctx: CardContext, handle: string, width: number): El {
  return textBlock({ width, fontSize: 15, lineHeight: '20px', color: ctx.theme.secondary, overflowWrap: 'anywhere' }, [
    'Replying to ',
    span({ color: ctx.theme.link }, `@${handle}`),
  ]);
}

function pollBlock(ctx: CardContext, poll: Poll): El {
  const total = poll.totalVotes ?? poll.choices.reduce((s, c) => s + (c.votes ?? 0), 0);
  const max = Math.max(...poll.choices.map((c) => c.votes ?? 0));
  const rows = poll.choices.map((c) => {
    const pct = total > 0 && c.votes !== undefined ? (c.votes / total) * 100 : 0;
    const winner = c.votes !== undefined && c.votes === max && max > 0;
    const weight = winner ? 700 : 400;
    return box(
      { position: 'relative', width: INNER, height: 32, marginTop: 8, alignItems: 'center' },
      box({
        position: 'absolute',
        left: 0,
        top: 0,
        height: 32,
        width: Math.max(6, Math.round((INNER * pct) / 100)),
        borderRadius: 4,
        backgroundColor: winner ? ctx.theme.pollBarWinner : ctx.theme.pollBar,
      }),
      singleLine(
        { position: 'absolute', left: 10, right: 64, top: 6, fontSize: 15, lineHeight: '20px', fontWeight: weight },
        c.label,
        INNER - 10 - 64,
      ),
      box(
        {
          position: 'absolute',
          right: 4,
          top: 0,
          height: 32,
          alignItems: 'center',
          fontSize: 15,
          fontWeight: weight,
          color: ctx.theme.text,
        },
        `${pct.toFixed(1).replace(/\.0$/, '')}%`,
      ),
    );
  });
  const summary = `${integerFormat.format(total)} ${total === 1 ? 'vote' : 'votes'}${poll.final ? ' · Final results' : ''}`;
  return box(
    { flexDirection: 'column', width: INNER, marginTop: 4 },
    ...rows,
    box({ marginTop: 8, fontSize: 15, lineHeight: '20px', color: ctx.theme.secondary }, summary),
  );
}

function linkCard(ctx: CardContext, card: LinkCard): El {
  const showImage = Boolean(card.image && ctx.assets.get(card.image.url));
  // The text column: the frame less its border, the side image when there is one, and padding.
  const linesWidth = INNER - 2 * BORDER - (showImage && !card.large ? 130 : 0) - 24;
  const line = (color: string, text: string) =>
    singleLine({ fontSize: 15, lineHeight: '20px', color, width: '100%' }, text, linesWidth);
  const lines = box(
    { flexDirection: 'column', padding: 12, flexGrow: 1, flexShrink: 1, minWidth: 0 },
    card.domain ? line(ctx.theme.secondary, card.domain) : null,
    card.title ? line(ctx.theme.text, card.title) : null,
    card.description && !card.large
      ? textBlock(
          {
            fontSize: 15,
            color: ctx.theme.secondary,
            lineHeight: '20px',
            overflowWrap: 'anywhere',
            maxHeight: 40,
            overflow: 'hidden',
          },
          inlineText(card.description.length > 120 ? `${card.description.slice(0, 119)}…` : card.description),
        )
      : null,
  );
  if (card.large) {
    const h = Math.round(gridInner(INNER) / 1.91);
    return framed(
      ctx,
      { width: INNER, marginTop: 12 },
      16,
      { flexDirection: 'column' },
      showImage ? image(ctx, card.image!.url, gridInner(INNER), h) : null,
      lines,
    );
  }
  return framed(
    ctx,
    { width: INNER, marginTop: 12 },
    16,
    {},
    showImage ? image(ctx, card.image!.url, 130, 130) : null,
    lines,
  );
}

function quoteCard(ctx: CardContext, q: Post): El {
  const square = q.author.avatarShape === 'square';
  const v = q.author.verification;
  return framed(
    ctx,
    { width: INNER, marginTop: 12 },
    16,
    { flexDirection: 'column', padding: QUOTE_PAD },
    box(
      { alignItems: 'center', width: QUOTE_INNER, fontSize: 15, lineHeight: '20px' },
      avatar(ctx, q.author.avatarUrl, 20, square ? 4 : 10),
      singleLine({ marginLeft: 6, fontWeight: 700, color: ctx.theme.text, flexShrink: 1 }, q.author.name),
      v !== 'none' ? img(badgeIcon(v), 16, 16, { marginLeft: 2 }) : null,
      singleLine(
        { marginLeft: 4, color: ctx.theme.secondary, flexShrink: 10 },
        `@${q.author.handle} · ${shortDate(q.createdAt)}`,
      ),
    ),
    q.replyTo ? box({ marginTop: 4 }, replyLine(ctx, q.replyTo.handle, QUOTE_INNER)) : null,
    q.text
      ? box(
          { marginTop: 4 },
          renderText(q, {
            width: QUOTE_INNER,
            fontSize: 15,
            lineHeight: 20,
            color: ctx.theme.text,
            linkColor: ctx.theme.link,
          }),
        )
      : null,
    q.media.length ? mediaGrid(ctx, q.media, QUOTE_INNER, 12) : null,
  );
}

const COUNTERS: Array<[keyof Counts, string]> = [
  ['replies', 'replies'],
  ['reposts', 'reposts'],
  ['likes', 'likes'],
  ['bookmarks', 'bookmarks'],
  ['views', 'views'],
];

function countsRow(ctx: CardContext, counts: Counts): El | null {
  const known = COUNTERS.filter(([k]) => counts[k] !== undefined);
  if (known.length === 0) return null;
  return box(
    { flexDirection: 'column', width: INNER },
    box({ width: INNER, height: BORDER, marginTop: 12, backgroundColor: ctx.theme.border }),
    box(
      { width: INNER, height: 32, marginTop: 12, alignItems: 'center', columnGap: 22 },
      ...known.map(([k, icon]) =>
        box(
          { alignItems: 'center', color: ctx.theme.secondary, fontSize: 14, lineHeight: '20px', height: 20 },
          img(counterIcon(icon as 'likes', ctx.theme.secondary), 19, 19, { marginRight: 5 }),
          compact.format(counts[k]!),
        ),
      ),
    ),
  );
}

/** Every string the card draws, for font selection. */
export function cardText(post: Post): string {
  const parts = [
    post.author.name,
    post.author.handle,
    post.text,
    formatDate(post.createdAt),
    'Replying to GIF votes Final results 0123456789.%·:KM',
  ];
  if (post.quoted) parts.push(post.quoted.author.name, post.quoted.text, post.quoted.author.handle);
  if (post.poll) parts.push(...post.poll.choices.map((c) => c.label));
  if (post.card) parts.push(post.card.title ?? '', post.card.description ?? '', post.card.domain ?? '');
  return parts.join('\n');
}

/** Image URLs the card draws, with the box in CSS pixels each is drawn in. */
export function cardImages(post: Post): Array<{ url: string; width: number; height: number }> {
  const out: Array<{ url: string; width: number; height: number }> = [];
  const grid = (p: Post, width: number) => {
    for (const l of mediaLayout(p.media, width)) out.push({ url: mediaSource(l.m), width: l.w, height: l.h });
  };
  if (post.author.avatarUrl) out.push({ url: post.author.avatarUrl, width: 48, height: 48 });
  grid(post, gridInner(INNER));
  if (post.card?.image) {
    out.push(
      post.card.large
        ? { url: post.card.image.url, width: gridInner(INNER), height: Math.round(gridInner(INNER) / 1.91) }
        : { url: post.card.image.url, width: 130, height: 130 },
    );
  }
  const q = post.quoted;
  if (q) {
    if (q.author.avatarUrl) out.push({ url: q.author.avatarUrl, width: 20, height: 20 });
    grid(q, gridInner(QUOTE_INNER));
  }
  return out;
}

export function buildCard(post: Post, ctx: CardContext): El {
  const t = ctx.theme;
  return framed(
    ctx,
    {
      width: CARD_WIDTH,
      fontFamily: ctx.fontFamily,
      color: t.text,
      // Explicit: "normal" line height differs from engine to engine.
      lineHeight: 1.35,
    },
    CARD_RADIUS,
    { flexDirection: 'column', padding: PAD },
    header(ctx, post),
    post.replyTo ? box({ marginTop: 12 }, replyLine(ctx, post.replyTo.handle, INNER)) : null,
    post.text
      ? box(
          { marginTop: 12 },
          renderText(post, { width: INNER, fontSize: 20, lineHeight: 26, color: t.text, linkColor: t.link }),
        )
      : null,
    post.poll ? pollBlock(ctx, post.poll) : null,
    post.media.length ? mediaGrid(ctx, post.media, INNER, 16) : null,
    post.card ? linkCard(ctx, post.card) : null,
    post.quoted ? quoteCard(ctx, post.quoted) : null,
    box({ marginTop: 12, fontSize: 15, color: t.secondary, lineHeight: '20px' }, formatDate(post.createdAt)),
    countsRow(ctx, post.counts),
  );
}

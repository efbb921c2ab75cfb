// Post → card tree, after X's own post embed. Pure: images arrive prepared in `assets`.
import { cutMarked } from '../sources/limits.ts';
import { type LinkCard, linkUrl, type Post, replyUrl, shownText } from '../sources/post.ts';
import type { Assets } from './assets.ts';
import { cutText } from './cut-text.ts';
import { countsRow } from './counters.ts';
import { labelWidth } from './label-width.ts';
import { badgeIcon, birdLogo, xLogo } from './icons.ts';
import { BORDER, gridInner, PAD, placeMedia, QUOTE_PAD, THUMBNAIL, type CardLayout } from './layout.ts';
import { offsetMinutes, type RenderOptionsFull } from './options.ts';
import { hasSpaceInRtlRun } from './rtl-run-breaks.ts';
import { directionOf, inlineText, renderText, singleLine } from './text.ts';
import type { Theme } from './theme.ts';
import { avatar, framed, image, mediaGrid, mediaSource } from './card-media.ts';
import { pollBlock, quotedPollBlock } from './card-poll.ts';
import { box, entitySpan, img, textBlock, type El } from './tree.ts';

/** The options the card itself reads (the rest shape the canvas around it). */
export type CardOptions = Pick<
  RenderOptionsFull,
  'logo' | 'showFullText' | 'showTimestamp' | 'showViews' | 'showStats' | 'timeZoneOffset'
>;

export interface CardContext {
  theme: Theme;
  layout: CardLayout;
  options: CardOptions;
  assets: Assets;
  fontFamily: string;
}

// Formatters made once: toLocale*String builds a new one per call (~0.4 ms each, measured).
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** The date line in a normalized offset (`UTC+5:30`), labelled with it; `UTC` for zero. */
export function formatDate(iso: string, offset = 'UTC+0'): string {
  const minutes = offsetMinutes(offset);
  const d = new Date(new Date(iso).getTime() + minutes * 60_000);
  return `${timeFormat.format(d)} ${minutes ? offset : 'UTC'} · ${dateFormat.format(d)}`;
}

/** The quote header's date, in the same offset as the date line: else a day apart near midnight. */
function shortDate(iso: string, offset = 'UTC+0'): string {
  return dateFormat.format(new Date(new Date(iso).getTime() + offsetMinutes(offset) * 60_000));
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

function header(ctx: CardContext, post: Post): El {
  const square = post.author.avatarShape === 'square';
  const mark = logoMark(ctx);
  // What is left for the name and handle: the card less the avatar, the mark and their margins.
  const textWidth = ctx.layout.inner - 48 - 10 - (mark ? 10 + 24 : 0);
  return box(
    { width: ctx.layout.inner, alignItems: 'center' },
    avatar(ctx, post.author.avatarUrl, 48, square ? 6 : 24),
    box(
      { flexDirection: 'column', marginLeft: 10, marginRight: mark ? 10 : 0, flexGrow: 1, flexShrink: 1, minWidth: 0 },
      nameLine(ctx, post, 15, 18, textWidth),
      // Cut to the column as the name is: before a ligature, as Chromium cuts, never inside it.
      singleLine({ fontSize: 15, color: ctx.theme.secondary, lineHeight: '20px' }, `@${post.author.handle}`, textWidth),
    ),
    mark,
  );
}

function logoMark(ctx: CardContext): El | null {
  if (ctx.options.logo === 'none') return null;
  return ctx.options.logo === 'bluebird' ? img(birdLogo(), 24, 24) : img(xLogo(ctx.theme.text), 24, 24);
}

function replyLine(ctx: CardContext, to: NonNullable<Post['replyTo']>, width: number): El {
  return textBlock({ width, fontSize: 15, lineHeight: '20px', color: ctx.theme.secondary, overflowWrap: 'anywhere' }, [
    'Replying to ',
    entitySpan(replyUrl(to), undefined, { color: ctx.theme.link }, [`@${to.handle}`]),
  ]);
}

/** Characters of right-to-left text that fill two lines at most: its letters average under 9 px. */
const RTL_CHAR_PX = 9;

/**
 * A link card's description in two lines at most, ending in "…" when cut. The engine's line clamp
 * cuts a right-to-left line to its first letter, and drops the forced breaks that a left-to-right
 * line's right-to-left run may need (rtl-run-breaks.ts): such text is cut by length instead.
 */
function description(ctx: CardContext, text: string, width: number): El {
  const style = { fontSize: 15, color: ctx.theme.secondary, lineHeight: '20px', overflowWrap: 'anywhere' };
  const dir = directionOf(text);
  if (dir === 'ltr' && !hasSpaceInRtlRun(text)) return textBlock({ ...style, lineClamp: 2 }, inlineText(text), dir);
  const shown = cutMarked(text, Math.floor((2 * width) / RTL_CHAR_PX));
  return textBlock({ ...style, width, maxHeight: 40, overflow: 'hidden' }, inlineText(shown), dir);
}

/** The element as a link to `url` in the HTML (an `<a>`), when `url` is one to follow. */
function linkedTo(el: El, url: string): El {
  const href = linkUrl(url);
  return href === null ? el : { ...el, props: { ...el.props, href } };
}

function linkCard(ctx: CardContext, card: LinkCard): El {
  const showImage = ctx.layout.showMedia && Boolean(card.image && ctx.assets.get(card.image.url));
  // A large card is its image over one line of title; without the image (none, failed, or
  // showMedia=false) it is drawn small, so the description is not dropped with it.
  const large = card.large && showImage;
  // The text column: the frame less its border, the side image when there is one, and padding.
  const linesWidth = ctx.layout.inner - 2 * BORDER - (showImage && !large ? THUMBNAIL : 0) - 24;
  const line = (color: string, text: string) =>
    singleLine({ fontSize: 15, lineHeight: '20px', color, width: '100%' }, text, linesWidth);
  const lines = box(
    { flexDirection: 'column', padding: 12, flexGrow: 1, flexShrink: 1, minWidth: 0 },
    card.domain ? line(ctx.theme.secondary, card.domain) : null,
    card.title ? linkedTo(line(ctx.theme.text, card.title), card.url) : null,
    card.description && !large ? description(ctx, card.description, linesWidth) : null,
  );
  if (large) {
    const h = Math.round(gridInner(ctx.layout.inner) / 1.91);
    return framed(
      ctx,
      { width: ctx.layout.inner, marginTop: 12 },
      16,
      { flexDirection: 'column' },
      image(ctx, card.image!.url, gridInner(ctx.layout.inner), h),
      lines,
    );
  }
  return framed(
    ctx,
    { width: ctx.layout.inner, marginTop: 12 },
    16,
    {},
    showImage ? image(ctx, card.image!.url, THUMBNAIL, THUMBNAIL) : null,
    lines,
  );
}

/** Of the quote header's room for name and handle, the most a long handle takes: the name keeps the rest. */
const QUOTE_HANDLE_SHARE = 0.6;

/**
 * Avatar, name, badge, "@handle" and "· date" on one line. The date is whole; the name is cut
 * (with "…") only when the line does not fit, and before the handle: it may take all the handle
 * leaves, and the handle (whose width is known: labelWidth) is cut only past its share of the
 * room, or where a short name leaves it less than its whole.
 */
function quoteHeader(ctx: CardContext, q: Post): El {
  const square = q.author.avatarShape === 'square';
  const v = q.author.verification;
  const date = `· ${shortDate(q.createdAt, ctx.options.timeZoneOffset)}`;
  const dateWidth = 4 + labelWidth(date, 15);
  const room = ctx.layout.quoteInner - 20 - 6 - (v !== 'none' ? 18 : 0) - 4 - dateWidth;
  // Its advances and the kerning that widens it, rounded up (labelWidth): the name never takes the handle's last pixel.
  const handleWidth = Math.min(labelWidth(`@${q.author.handle}`, 15), Math.floor(room * QUOTE_HANDLE_SHARE));
  const nameWidth = Math.max(0, room - handleWidth);
  const secondary = { marginLeft: 4, color: ctx.theme.secondary };
  return box(
    { alignItems: 'center', width: ctx.layout.quoteInner, fontSize: 15, lineHeight: '20px' },
    avatar(ctx, q.author.avatarUrl, 20, square ? 4 : 10),
    singleLine(
      { marginLeft: 6, fontWeight: 700, color: ctx.theme.text, flexShrink: 0, maxWidth: nameWidth },
      q.author.name,
      nameWidth,
    ),
    v !== 'none' ? img(badgeIcon(v), 16, 16, { marginLeft: 2, flexShrink: 0 }) : null,
    // The handle takes what the name leaves: cut there, never inside a ligature (glyph-clusters.ts).
    singleLine({ ...secondary, flexShrink: 1 }, `@${q.author.handle}`, 'row'),
    box({ ...secondary, flexShrink: 0, whiteSpace: 'pre' }, date),
  );
}

/** A quoted long post is cut as the post itself is (showFullText=false), with X's "Show more". */
function quoteText(ctx: CardContext, q: Post): El {
  const cut = ctx.options.showFullText ? null : cutText(q);
  const style = { width: ctx.layout.quoteInner, fontSize: 15, lineHeight: 20 };
  return box(
    { marginTop: 4, flexDirection: 'column' },
    renderText(cut ? { ...q, ...cut } : shownText(q), { ...style, color: ctx.theme.text, linkColor: ctx.theme.link }),
    cut ? box({ fontSize: 15, lineHeight: '20px', color: ctx.theme.link }, 'Show more') : null,
  );
}

function quoteCard(ctx: CardContext, q: Post): El {
  return framed(
    ctx,
    { width: ctx.layout.inner, marginTop: 12 },
    16,
    { flexDirection: 'column', padding: QUOTE_PAD },
    quoteHeader(ctx, q),
    q.replyTo ? box({ marginTop: 4 }, replyLine(ctx, q.replyTo, ctx.layout.quoteInner)) : null,
    q.text ? quoteText(ctx, q) : null,
    q.poll ? quotedPollBlock(ctx, q.poll) : null,
    q.media.length && ctx.layout.showMedia ? mediaGrid(ctx, q.media, ctx.layout.quoteInner, 12) : null,
  );
}

/** Every string the card draws, for font selection. */
export function cardText(post: Post): string {
  const parts = [
    post.author.name,
    post.author.handle,
    post.text,
    formatDate(post.createdAt),
    'Replying to GIF votes Final results days hours minutes left Show more 0123456789.%·:+-KM UTC',
  ];
  if (post.quoted) parts.push(post.quoted.author.name, post.quoted.text, post.quoted.author.handle);
  for (const poll of [post.poll, post.quoted?.poll]) if (poll) parts.push(...poll.choices.map((c) => c.label));
  if (post.card) parts.push(post.card.title ?? '', post.card.description ?? '', post.card.domain ?? '');
  return parts.join('\n');
}

/** Image URLs the card draws with this layout, with the box in CSS pixels each is drawn in. */
export function cardImages(post: Post, layout: CardLayout): Array<{ url: string; width: number; height: number }> {
  const out: Array<{ url: string; width: number; height: number }> = [];
  const grid = (p: Post, width: number) => {
    for (const l of placeMedia(p.media, width, layout.mediaLayout)) {
      const url = mediaSource(l.m);
      if (url) out.push({ url, width: l.w, height: l.h });
    }
  };
  if (post.author.avatarUrl) out.push({ url: post.author.avatarUrl, width: 48, height: 48 });
  const q = post.quoted;
  if (q?.author.avatarUrl) out.push({ url: q.author.avatarUrl, width: 20, height: 20 });
  if (!layout.showMedia) return out;
  grid(post, gridInner(layout.inner));
  if (post.card?.image) {
    const wide = gridInner(layout.inner);
    out.push(
      post.card.large
        ? { url: post.card.image.url, width: wide, height: Math.round(wide / 1.91) }
        : { url: post.card.image.url, width: THUMBNAIL, height: THUMBNAIL },
    );
  }
  if (q) grid(q, gridInner(layout.quoteInner));
  return out;
}

function postText(ctx: CardContext, post: Post): El | null {
  if (!post.text) return null;
  const t = ctx.theme;
  // Cut here (showFullText=false), or by the source, which gave only the first part: "Show more".
  const shown = (ctx.options.showFullText ? null : cutText(post)) ?? (post.truncated ? shownText(post) : null);
  return box(
    { marginTop: 12, flexDirection: 'column' },
    renderText(shown ? { ...post, ...shown } : post, {
      width: ctx.layout.inner,
      fontSize: 20,
      lineHeight: 26,
      color: t.text,
      linkColor: t.link,
    }),
    shown ? box({ fontSize: 20, lineHeight: '26px', color: t.link }, 'Show more') : null,
  );
}

export function buildCard(post: Post, ctx: CardContext): El {
  const t = ctx.theme;
  return framed(
    ctx,
    {
      width: ctx.layout.width,
      fontFamily: ctx.fontFamily,
      color: t.text,
      // Explicit: "normal" line height differs from engine to engine.
      lineHeight: 1.35,
    },
    ctx.layout.radius,
    { flexDirection: 'column', padding: PAD },
    header(ctx, post),
    post.replyTo ? box({ marginTop: 12 }, replyLine(ctx, post.replyTo, ctx.layout.inner)) : null,
    postText(ctx, post),
    post.poll ? pollBlock(ctx, post.poll) : null,
    post.media.length && ctx.layout.showMedia ? mediaGrid(ctx, post.media, ctx.layout.inner, 16) : null,
    post.card ? linkCard(ctx, post.card) : null,
    post.quoted ? quoteCard(ctx, post.quoted) : null,
    ctx.options.showTimestamp
      ? box(
          { marginTop: 12, fontSize: 15, color: t.secondary, lineHeight: '20px' },
          formatDate(post.createdAt, ctx.options.timeZoneOffset),
        )
      : null,
    countsRow(ctx, post.counts),
  );
}

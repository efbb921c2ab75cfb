// Photos, videos and GIFs in a card: the grid of tiles, each with its poster, play button or
// badge, and the framed, rounded boxes and avatars the rest of the card draws images in.
import type { Media } from '../sources/post.ts';
import type { CardContext } from './card.ts';
import { placeholderImage, playButton } from './icons.ts';
import { BORDER, gridInner, placeMedia } from './layout.ts';
import { box, img, type El, type Style } from './tree.ts';

export function image(
  ctx: CardContext,
  url: string | undefined,
  w: number,
  h: number,
  style: Style = {},
  alt?: string,
): El {
  const data = url ? ctx.assets.get(url) : null;
  const el = img(data ?? placeholderImage(ctx.theme.placeholder, ctx.theme.secondary, w, h), w, h, {
    objectFit: 'cover',
    ...style,
  });
  return alt ? { ...el, props: { ...el.props, alt } } : el;
}

/** What a photo or poster stands for in the HTML: its own description, else what X says ("Image"). */
function describeMedia(m: Media): string {
  return m.alt ?? (m.type === 'photo' ? 'Image' : m.type === 'video' ? 'Video' : 'GIF');
}

/** A rounded box with a 1px outline; what is drawn inside is clipped to its rounded corners. */
export function framed(
  ctx: CardContext,
  outer: Style,
  radius: number,
  inner: Style,
  ...children: Array<El | null>
): El {
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

/** The dark label in a video's or GIF's lower left corner (duration, "GIF"). */
const MEDIA_BADGE: Style = {
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
};

function formatDuration(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The image a media item is drawn from: a photo itself, a video's or GIF's poster. */
export function mediaSource(m: Media): string | undefined {
  return m.type === 'photo' ? m.url : m.poster;
}

function mediaOverlay(_ctx: CardContext, m: Media, w: number, h: number): El | null {
  if (m.type === 'video') {
    const size = Math.min(64, Math.round(Math.min(w, h) * 0.4));
    return box(
      { position: 'absolute', left: 0, top: 0, width: w, height: h, alignItems: 'center', justifyContent: 'center' },
      img(playButton(), size, size),
      m.durationMs ? box(MEDIA_BADGE, formatDuration(m.durationMs)) : null,
    );
  }
  if (m.type === 'gif') {
    return box(MEDIA_BADGE, 'GIF');
  }
  return null;
}

/** A round (or rounded-square) avatar. */
export function avatar(ctx: CardContext, url: string | undefined, size: number, radius: number): El {
  return image(ctx, url, size, size, { borderRadius: radius });
}

function tile(ctx: CardContext, m: Media, w: number, h: number): El {
  const url = mediaSource(m);
  // A video or GIF with no poster to draw is black, as X's player is before it loads: the
  // placeholder's picture glyph would sit under the play button.
  const blank = m.type !== 'photo' && !(url && ctx.assets.get(url));
  return box(
    { position: 'relative', width: w, height: h, ...(blank ? { backgroundColor: '#000000' } : {}) },
    blank ? null : image(ctx, url, w, h, {}, describeMedia(m)),
    mediaOverlay(ctx, m, w, h),
  );
}

export function mediaGrid(ctx: CardContext, media: Media[], outer: number, radius: number): El {
  const inner = gridInner(outer);
  const layout = placeMedia(media, inner, ctx.layout.mediaLayout);
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

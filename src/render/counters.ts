// The counters row under a post (replies, reposts, likes, bookmarks, views). Its numbers are
// short strings of known glyphs, so their widths are known before layout: at narrow widths the
// gaps close up, and counters that still do not fit are left out, least read first, instead of
// running past the card.
import type { Counts } from '../sources/post.ts';
import type { CardContext } from './card.ts';
import { counterIcon } from './icons.ts';
import { BORDER } from './layout.ts';
import { box, img, type El } from './tree.ts';

const ORDER: Array<keyof Counts> = ['replies', 'reposts', 'likes', 'bookmarks', 'views'];
/** Left out first when the row is too narrow: X's narrow layouts show no bookmark count; likes stay. */
const DROP_ORDER: Array<keyof Counts> = ['bookmarks', 'replies', 'reposts', 'views'];

const FONT_SIZE = 14;
const ICON = 19;
const ICON_MARGIN = 5;
const GAP = 22;
const MIN_GAP = 8;

/** Advance widths in em of the glyphs a compact number uses, from Noto Sans (digits are tabular). */
const ADVANCE_EM: Record<string, number> = { '.': 0.268, K: 0.619, M: 0.907, B: 0.65, T: 0.556 };
const DIGIT_EM = 0.572;
/** An unknown glyph is taken as wide as the widest here, so an estimate never falls short. */
const WIDEST_EM = 0.907;

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

function widthOf(label: string): number {
  let em = 0;
  for (const ch of label) em += ch >= '0' && ch <= '9' ? DIGIT_EM : (ADVANCE_EM[ch] ?? WIDEST_EM);
  return ICON + ICON_MARGIN + Math.ceil(em * FONT_SIZE);
}

type Labels = Array<[keyof Counts, string]>;

const contentWidth = (labels: Labels) => labels.reduce((sum, [, label]) => sum + widthOf(label), 0);

/** The counters that fit in `width` with at least MIN_GAP between them, and the gap they take. */
function fitCounters(labels: Labels, width: number) {
  let shown = labels;
  for (const drop of DROP_ORDER) {
    if (contentWidth(shown) + MIN_GAP * (shown.length - 1) <= width) break;
    shown = shown.filter(([k]) => k !== drop);
  }
  const gap = shown.length > 1 ? Math.min(GAP, Math.floor((width - contentWidth(shown)) / (shown.length - 1))) : 0;
  return { shown, gap: Math.max(gap, 0) };
}

export function countsRow(ctx: CardContext, counts: Counts): El | null {
  if (!ctx.options.showStats) return null;
  const known = ORDER.filter((k) => counts[k] !== undefined && (k !== 'views' || ctx.options.showViews));
  if (known.length === 0) return null;
  const { shown, gap } = fitCounters(
    known.map((k) => [k, compact.format(counts[k]!)]),
    ctx.layout.inner,
  );
  return box(
    { flexDirection: 'column', width: ctx.layout.inner },
    box({ width: ctx.layout.inner, height: BORDER, marginTop: 12, backgroundColor: ctx.theme.border }),
    box(
      { width: ctx.layout.inner, height: 32, marginTop: 12, alignItems: 'center', columnGap: gap },
      ...shown.map(([k, label]) =>
        box(
          { alignItems: 'center', color: ctx.theme.secondary, fontSize: FONT_SIZE, lineHeight: '20px', height: 20 },
          img(counterIcon(k, ctx.theme.secondary), ICON, ICON, { marginRight: ICON_MARGIN }),
          label,
        ),
      ),
    ),
  );
}

// The counters row under a post (replies, reposts, likes, bookmarks, views). Its numbers' widths
// are known before layout (label-width.ts): at narrow widths the
// gaps close up, and counters that still do not fit are left out, least read first, instead of
// running past the card.
import type { Counts } from '../sources/post.ts';
import type { CardContext } from './card.ts';
import { counterIcon } from './icons.ts';
import { labelWidth } from './label-width.ts';
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

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** X shows a count of zero as its icon alone: "0" beside every unanswered post's icon is not X. */
const countLabel = (n: number) => (n === 0 ? '' : compact.format(n));

function widthOf(label: string): number {
  return label === '' ? ICON : ICON + ICON_MARGIN + labelWidth(label, FONT_SIZE);
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
    known.map((k) => [k, countLabel(counts[k]!)]),
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
          img(counterIcon(k, ctx.theme.secondary), ICON, ICON, label === '' ? {} : { marginRight: ICON_MARGIN }),
          ...(label === '' ? [] : [label]),
        ),
      ),
    ),
  );
}

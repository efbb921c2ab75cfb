// A poll in a card: a bar per choice sized to its share (the leader's bold and coloured), or an
// outline where the source sent no count, then the votes and the time left or "Final results".
import { type Poll, pollTotal } from '../sources/post.ts';
import type { CardContext } from './card.ts';
import { singleLine } from './text.ts';
import { box, type El } from './tree.ts';

const integerFormat = new Intl.NumberFormat('en-US');

/** A poll's rows: their height and the gap above each, and where the label sits in its row. */
interface PollSize {
  row: number;
  gap: number;
  labelTop: number;
}

const POST_POLL: PollSize = { row: 32, gap: 8, labelTop: 6 };
// A quoted post's poll is drawn smaller, as X draws what a quote holds: rows 4 px lower and
// closer, the text at the same 15 px (it is the quote's text size too).
const QUOTED_POLL: PollSize = { row: 28, gap: 6, labelTop: 4 };

/** The poll under a post's text, as wide as the text. */
export function pollBlock(ctx: CardContext, poll: Poll): El {
  return pollRows(ctx, poll, ctx.layout.inner, POST_POLL);
}

/** The poll of a quoted post, in the quote's frame under its text. */
export function quotedPollBlock(ctx: CardContext, poll: Poll): El {
  return pollRows(ctx, poll, ctx.layout.quoteInner, QUOTED_POLL);
}

function pollRows(ctx: CardContext, poll: Poll, width: number, size: PollSize): El {
  const total = pollTotal(poll);
  const max = Math.max(...poll.choices.map((c) => c.votes ?? 0));
  const rows = poll.choices.map((c) => {
    const pct = total > 0 && c.votes !== undefined ? (c.votes / total) * 100 : 0;
    const winner = c.votes !== undefined && c.votes === max && max > 0;
    const weight = winner ? 700 : 400;
    return box(
      { position: 'relative', width, height: size.row, marginTop: size.gap, alignItems: 'center' },
      // A choice whose count the source did not send has no bar: an outline spans the row instead.
      box({
        position: 'absolute',
        left: 0,
        top: 0,
        height: size.row,
        borderRadius: 4,
        ...(c.votes === undefined
          ? { width, border: `1px solid ${ctx.theme.border}` }
          : {
              width: Math.max(6, Math.round((width * pct) / 100)),
              backgroundColor: winner ? ctx.theme.pollBarWinner : ctx.theme.pollBar,
            }),
      }),
      singleLine(
        {
          position: 'absolute',
          left: 10,
          right: 64,
          top: size.labelTop,
          // At the bar's start whatever the label's direction, as X sets a right-to-left label
          // in its row: the line's own direction would put it by the share, away from its bar.
          textAlign: 'left',
          fontSize: 15,
          lineHeight: '20px',
          fontWeight: weight,
        },
        c.label,
        width - 10 - 64,
      ),
      box(
        {
          position: 'absolute',
          right: 4,
          top: 0,
          height: size.row,
          alignItems: 'center',
          fontSize: 15,
          fontWeight: weight,
          color: ctx.theme.text,
        },
        c.votes === undefined ? '' : `${pct.toFixed(1).replace(/\.0$/, '')}%`,
      ),
    );
  });
  const counted = poll.totalVotes !== undefined || poll.choices.some((c) => c.votes !== undefined);
  const votes = counted ? `${integerFormat.format(total)} ${total === 1 ? 'vote' : 'votes'}` : '';
  const status = poll.final ? 'Final results' : (poll.timeLeft ?? '');
  const summary = [votes, status].filter(Boolean).join(' · ');
  return box(
    { flexDirection: 'column', width, marginTop: 4 },
    ...rows,
    summary
      ? box({ marginTop: size.gap, fontSize: 15, lineHeight: '20px', color: ctx.theme.secondary }, summary)
      : null,
  );
}

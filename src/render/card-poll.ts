// A poll in a card: a bar per choice sized to its share (the leader's bold and coloured), or an
// outline where the source sent no count, then the votes and the time left or "Final results".
import { type Poll, pollTotal } from '../sources/post.ts';
import type { CardContext } from './card.ts';
import { singleLine } from './text.ts';
import { box, type El } from './tree.ts';

const integerFormat = new Intl.NumberFormat('en-US');

/** The poll under a post's text, as wide as the text. */
export function pollBlock(ctx: CardContext, poll: Poll): El {
  const total = pollTotal(poll);
  const max = Math.max(...poll.choices.map((c) => c.votes ?? 0));
  const rows = poll.choices.map((c) => {
    const pct = total > 0 && c.votes !== undefined ? (c.votes / total) * 100 : 0;
    const winner = c.votes !== undefined && c.votes === max && max > 0;
    const weight = winner ? 700 : 400;
    return box(
      { position: 'relative', width: ctx.layout.inner, height: 32, marginTop: 8, alignItems: 'center' },
      // A choice whose count the source did not send has no bar: an outline spans the row instead.
      box({
        position: 'absolute',
        left: 0,
        top: 0,
        height: 32,
        borderRadius: 4,
        ...(c.votes === undefined
          ? { width: ctx.layout.inner, border: `1px solid ${ctx.theme.border}` }
          : {
              width: Math.max(6, Math.round((ctx.layout.inner * pct) / 100)),
              backgroundColor: winner ? ctx.theme.pollBarWinner : ctx.theme.pollBar,
            }),
      }),
      singleLine(
        { position: 'absolute', left: 10, right: 64, top: 6, fontSize: 15, lineHeight: '20px', fontWeight: weight },
        c.label,
        ctx.layout.inner - 10 - 64,
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
        c.votes === undefined ? '' : `${pct.toFixed(1).replace(/\.0$/, '')}%`,
      ),
    );
  });
  const counted = poll.totalVotes !== undefined || poll.choices.some((c) => c.votes !== undefined);
  const votes = counted ? `${integerFormat.format(total)} ${total === 1 ? 'vote' : 'votes'}` : '';
  const status = poll.final ? 'Final results' : (poll.timeLeft ?? '');
  const summary = [votes, status].filter(Boolean).join(' · ');
  return box(
    { flexDirection: 'column', width: ctx.layout.inner, marginTop: 4 },
    ...rows,
    summary ? box({ marginTop: 8, fontSize: 15, lineHeight: '20px', color: ctx.theme.secondary }, summary) : null,
  );
}

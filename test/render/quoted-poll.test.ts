import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMarkdown } from '../../src/markdown/render.ts';
import { renderCard } from '../../src/render/renderer.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { pollAsOf, type Post } from '../../src/sources/post.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// A quoted post's poll, as each source sends it: FxTwitter builds its quote as it builds the post
// (`quote.poll`), the syndication endpoint gives the quoted tweet its own `card`.

const ENDS = '2026-04-11T12:00:00Z';

function fxQuotingPoll(): Post {
  const author = (name: string, screen_name: string) => ({ id: '1', name, screen_name });
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: {
      id: '1950000000000000031',
      text: 'Vote in this one before it closes',
      author: author('Dana Doe', 'danadoe'),
      created_timestamp: Date.parse('2026-04-09T12:30:00Z') / 1000,
      likes: 3,
      quote: {
        id: '1950000000000000032',
        text: 'Tabs or spaces? Settle it.',
        author: author('Sam', 'sam'),
        created_timestamp: Date.parse('2026-04-08T12:00:00Z') / 1000,
        poll: {
          choices: [
            { label: 'Tabs', count: 420 },
            { label: 'Spaces', count: 510 },
            { label: 'Whatever the formatter', count: 980 },
          ],
          total_votes: 1910,
          ends_at: ENDS,
          time_left_en: '2 days left',
        },
      },
    },
  });
  assert.equal(r.kind, 'found');
  return (r as { post: Post }).post;
}

function synQuotingPoll(): Post {
  const s = (v: string) => ({ type: 'STRING', string_value: v });
  const user = (name: string, screen_name: string) => ({ id_str: '1', name, screen_name });
  const r = normalizeSyndication({
    __typename: 'Tweet',
    id_str: '1950000000000000033',
    text: 'Look at these results',
    created_at: '2026-04-10T15:45:00.000Z',
    user: user('Dana Doe', 'danadoe'),
    quoted_tweet: {
      id_str: '1950000000000000034',
      text: 'Which output format do you use most?',
      created_at: '2026-04-09T11:00:00.000Z',
      user: user('Acme Corp', 'acme'),
      card: {
        name: 'poll2choice_text_only',
        binding_values: {
          choice1_label: s('PNG'),
          choice1_count: s('1234'),
          choice2_label: s('Markdown'),
          choice2_count: s('890'),
          end_datetime_utc: s('2026-04-10T12:00:00Z'),
          counts_are_final: { type: 'BOOLEAN', boolean_value: true },
        },
      },
    },
  });
  assert.equal(r.kind, 'found');
  return (r as { post: Post }).post;
}

const withoutQuotedPoll = (post: Post): Post => ({ ...post, quoted: { ...post.quoted!, poll: undefined } });

/** The card's text as a reader sees it: the HTML without its tags. */
async function visibleText(post: Post, theme: 'light' | 'dark'): Promise<string> {
  const html = (await renderCard(post, new Map(), { format: 'html', theme })).bytes.toString();
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

async function svgHeight(post: Post, theme: 'light' | 'dark'): Promise<number> {
  const svg = (await renderCard(post, new Map(), { format: 'svg', theme })).bytes.toString();
  return Number(/<svg[^>]* height="(\d+)"/.exec(svg)![1]);
}

test('both sources carry a quoted post’s poll', () => {
  assert.deepEqual(
    fxQuotingPoll().quoted?.poll?.choices.map((c) => c.label),
    ['Tabs', 'Spaces', 'Whatever the formatter'],
  );
  const syn = synQuotingPoll().quoted?.poll;
  assert.deepEqual(
    syn?.choices.map((c) => [c.label, c.votes]),
    [
      ['PNG', 1234],
      ['Markdown', 890],
    ],
  );
  assert.equal(syn?.final, true);
});

for (const theme of ['light', 'dark'] as const) {
  test(`a quoted post’s poll is drawn in the quote, under its text (${theme})`, async () => {
    const seen = await visibleText(synQuotingPoll(), theme);
    assert.match(seen, /Which output format do you use most\? PNG 58\.1% Markdown 41\.9% 2,124 votes · Final results/);
  });

  test(`the card grows by the quoted poll’s rows and summary (${theme})`, async () => {
    const post = synQuotingPoll();
    const grown = (await svgHeight(post, theme)) - (await svgHeight(withoutQuotedPoll(post), theme));
    // Two rows of 28 px, each 6 px below what is above it, the summary line (20 px, 6 px below)
    // and the block's own 4 px.
    assert.equal(grown, 4 + 2 * (6 + 28) + 6 + 20);
  });
}

test('an open quoted poll shows the time it has left, and Final results once it ends', async () => {
  const post = fxQuotingPoll();
  const open = pollAsOf(post, Date.parse(ENDS) - 30 * 3_600_000);
  assert.equal(open.quoted?.poll?.timeLeft, '1 day left');
  assert.equal(pollAsOf(post, Date.parse(ENDS) - 29 * 3_600_000), open, 'the same post while the label stands');
  assert.match(await visibleText(open, 'light'), /1,910 votes · 1 day left/);
  const ended = pollAsOf(post, Date.parse(ENDS) + 1000);
  assert.match(await visibleText(ended, 'light'), /1,910 votes · Final results/);
});

test('the Markdown lists a quoted post’s poll choices under the quote', () => {
  const md = renderMarkdown(synQuotingPoll());
  assert.match(
    md,
    /> Which output format do you use most\?\n>\n> - PNG: 1,234 votes \(58\.1%\)\n> - Markdown: 890 votes \(41\.9%\)\n/,
  );
});

useChromium();
for (const theme of ['light', 'dark'] as const) {
  test(`HTML in Chromium matches the PNG: a quoted post’s poll (${theme})`, async (t) => {
    await assertHtmlMatchesPng(t, 'quoted-poll', fxQuotingPoll(), new Map(), theme);
  });
}

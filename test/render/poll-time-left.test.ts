import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Renderer } from '../../src/render/render-service.ts';
import { MediaFetcher } from '../../src/sources/media.ts';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import { normalizeSyndication } from '../../src/sources/syndication/normalize.ts';
import { pollAsOf, type Post } from '../../src/sources/post.ts';
import { manualClock } from '../helper.ts';

const ENDS = '2026-11-29T16:00:00Z';
const HOUR = 3_600_000;

function pollPost(poll: Record<string, unknown>): Post {
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: {
      id: '1950000000000000002',
      text: 'Quel est votre langage préféré ? 🤔',
      author: { id: '1', name: 'Kiki', screen_name: 'kiki' },
      created_timestamp: Date.parse('2026-11-26T16:00:00Z') / 1000,
      poll: {
        choices: [
          { label: 'TypeScript', count: 120 },
          { label: 'Rust', count: 80 },
        ],
        total_votes: 200,
        ...poll,
      },
    },
  });
  assert.equal(r.kind, 'found');
  return (r as { post: Post }).post;
}

/** The card's text as a reader sees it: the HTML without its tags. */
function visibleText(html: Buffer): string {
  return html
    .toString()
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ');
}

test('an open poll shows the time it has left, and a poll past its end shows Final results', async () => {
  const clock = manualClock(Date.parse(ENDS) - 2 * 24 * HOUR - 3 * HOUR);
  const media = new MediaFetcher({ timeoutMs: 1000, maxBytes: 1 << 20, clock });
  const renderer = new Renderer(media, { timeoutMs: 10_000, workers: 0, cacheBytes: 1 << 20, clock });
  const post = pollPost({ ends_at: ENDS });
  const seen = async () => visibleText((await renderer.render(post, { format: 'html', theme: 'light' })).bytes);

  assert.match(await seen(), /200 votes · 2 days left/);
  clock.set(Date.parse(ENDS) - 4.5 * HOUR);
  // The same post, cached as fetched, is drawn with the time left now, not the first render's.
  assert.match(await seen(), /200 votes · 4 hours left/);
  clock.set(Date.parse(ENDS) - 59_000);
  assert.match(await seen(), /200 votes · 1 minute left/);
  clock.set(Date.parse(ENDS) + 1000);
  const ended = await seen();
  assert.match(ended, /200 votes · Final results/);
  assert.doesNotMatch(ended, /left/);
});

test('a poll is drawn as the same post while its time left stands, so its cache keys are found', () => {
  const post = pollPost({ ends_at: ENDS });
  const now = Date.parse(ENDS) - 30 * HOUR;
  const drawn = pollAsOf(post, now);
  assert.equal(drawn.poll?.timeLeft, '1 day left');
  assert.equal(pollAsOf(post, now + 60_000), drawn);
  assert.notEqual(pollAsOf(post, now + 8 * HOUR), drawn, 'a new label is a new post');
});

test('a poll whose counts the source did not send shows neither shares nor a vote count', async () => {
  const s = (v: string) => ({ type: 'STRING', string_value: v });
  const r = normalizeSyndication({
    __typename: 'Tweet',
    id_str: '1950000000000000009',
    text: 'Which one?',
    created_at: '2026-11-26T16:00:00.000Z',
    user: { id_str: '1', name: 'Kiki', screen_name: 'kiki' },
    card: {
      name: 'poll2choice_text_only',
      binding_values: { choice1_label: s('Tea'), choice2_label: s('Coffee'), end_datetime_utc: s(ENDS) },
    },
  });
  assert.equal(r.kind, 'found');
  const clock = manualClock(Date.parse(ENDS) - 3 * HOUR);
  const media = new MediaFetcher({ timeoutMs: 1000, maxBytes: 1 << 20, clock });
  const renderer = new Renderer(media, { timeoutMs: 10_000, workers: 0, cacheBytes: 0, clock });
  const post = (r as { post: Post }).post;
  const seen = visibleText((await renderer.render(post, { format: 'html', theme: 'light' })).bytes);
  assert.match(seen, /Tea.*Coffee.*3 hours left/);
  // No count is known: "0 %" and "0 votes" would say nobody voted.
  assert.doesNotMatch(seen, /%|votes?\b/);
});

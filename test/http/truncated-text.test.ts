// A long post the source gave only the first part of (X's syndication endpoint cuts a note at 270
// characters and says so with `note_tweet`) must not pass for the whole post.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { build, makeTempDir } from '../helper.ts';
import { SAMPLES_DIR } from '../fixtures.ts';

const NOTE = '1900000000000000901';
const WHOLE = '1900000000000000001';
const FIRST_PART =
  'A long post, seen through the syndication endpoint: only its first part comes back, and it ends here';

test('a long post known only in part ends with an ellipsis, "Show more" on the card, in HTML and Markdown', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sample = JSON.parse(fs.readFileSync(path.join(SAMPLES_DIR, 'upstream/syndication', `${WHOLE}.json`), 'utf8'));
  fs.mkdirSync(path.join(dir, 'upstream/syndication'), { recursive: true });
  const note = {
    ...sample,
    id_str: NOTE,
    text: FIRST_PART,
    display_text_range: [0, Array.from(FIRST_PART).length],
    entities: {},
    note_tweet: { id: 'Tm90ZVR3ZWV0UmVzdWx0czox' },
  };
  fs.writeFileSync(path.join(dir, 'upstream/syndication', `${NOTE}.json`), JSON.stringify(note));
  const upstream = await startFixtureServer({ roots: [dir, SAMPLES_DIR] });
  t.after(() => upstream.close());
  const h = await build(t, { env: upstream.env });
  const { apiKey } = await h.account('pro');
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': apiKey } });

  const html = await get(`/api/v1/screenshot/${NOTE}?format=html`);
  assert.equal(html.statusCode, 200, html.body.slice(0, 300));
  assert.ok(html.body.includes(`${FIRST_PART}…`), 'the text ends as a cut text does');
  assert.ok(html.body.includes('Show more'));
  const markdown = await get(`/api/v1/content/${NOTE}`);
  assert.equal(markdown.statusCode, 200);
  assert.ok(markdown.body.includes(`${FIRST_PART}…\n`), markdown.body);

  // A post the source gave whole is drawn as it is.
  const whole = await get(`/api/v1/screenshot/${WHOLE}?format=html`);
  assert.ok(!whole.body.includes('Show more'));
  assert.ok(!(await get(`/api/v1/content/${WHOLE}`)).body.includes('…\n'));
});

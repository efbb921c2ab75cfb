import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildListening, signInWithLink } from '../account-pages.ts';
import { launchChromium } from '../render/chromium.ts';

// A signed-in customer's forms, sent as a crafted client would: a body the browser never sends
// (another charset, a bad %-escape, bytes that are not UTF-8) and names that would reorder the
// text around them are refused with a page saying so, and change nothing.

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

test('forms not in UTF-8 and names with controls or bidi overrides change nothing', async (t) => {
  const h = await buildListening(t);
  const context = await browser.newContext({ baseURL: h.url });
  t.after(() => context.close());
  const page = await context.newPage();
  await signInWithLink(page, h, 'forms@example.com');
  const account = (await h.c.accounts.findAccountByEmail('forms@example.com'))!;
  await page.goto('/account/profile');
  const csrf = encodeURIComponent(await page.locator('input[name=_csrf]').first().inputValue());
  const post = (url: string, body: string | Buffer, type = 'application/x-www-form-urlencoded') =>
    context.request.post(url, { headers: { 'content-type': type }, data: body, maxRedirects: 0 });

  const refused: Array<[string, string, string | Buffer, string?]> = [
    ['a bad escape', '/account/profile', `_csrf=${csrf}&displayName=%FF`],
    ['a half escape', '/account/profile', `_csrf=${csrf}&displayName=Ann%E2%82`],
    ['not an escape', '/account/keys', `_csrf=${csrf}&name=50%zz`],
    ['bytes not UTF-8', '/account/profile', Buffer.from(`_csrf=${csrf}&displayName=\xe9`, 'latin1')],
    [
      'UTF-16',
      '/account/profile',
      Buffer.from(`_csrf=${csrf}&displayName=Ann`, 'utf16le'),
      'application/x-www-form-urlencoded; charset=utf-16',
    ],
  ];
  for (const [label, url, body, type] of refused) {
    const res = await post(url, body, type);
    assert.ok(res.status() === 400 || res.status() === 415, `${label}: ${res.status()}`);
    const text = await res.text();
    assert.match(text, /Nothing was changed/, label);
    assert.match(text, res.status() === 415 ? /Unsupported form/ : /Bad request/, label);
  }

  const override = encodeURIComponent('Ann\u202egnp.exe');
  const profile = await post('/account/profile', `_csrf=${csrf}&displayName=${override}`);
  assert.equal(profile.status(), 400);
  assert.match(await profile.text(), /cannot hold control characters or bidi overrides/);
  const key = await post('/account/keys', `_csrf=${csrf}&name=${encodeURIComponent('ci \u2067key')}`);
  assert.equal(key.status(), 400);
  assert.match(await key.text(), /No key was created: .* without control characters or bidi overrides/);
  assert.equal(await h.c.account.store.getDisplayName(account.id), null, 'no display name was saved');
  assert.equal((await h.c.accounts.listKeys(account.id)).length, 0, 'no key was made');

  // The same forms, well formed: a name in another script, escaped as a browser escapes it.
  const ok = await post('/account/profile', `_csrf=${csrf}&displayName=${encodeURIComponent('Zoë أحمد')}`);
  assert.equal(ok.status(), 200);
  assert.equal(await h.c.account.store.getDisplayName(account.id), 'Zoë أحمد');
});

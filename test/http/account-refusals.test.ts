import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MAX_ACTIVE_KEYS } from '../../src/account/keys.ts';
import { issueApiKey } from '../../src/auth/admin.ts';
import { authenticate } from '../../src/auth/authenticate.ts';
import { buildListening, type PagesHarness, requestSignInLink, waitForMail } from '../account-pages.ts';
import { manualClock } from '../helper.ts';
import { launchChromium } from '../render/chromium.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

async function newContext(t: { after(fn: () => Promise<void>): void }, h: PagesHarness): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: h.url });
  t.after(() => context.close());
  return context;
}

/** Opens a link and presses its button; true when it led to the overview. */
async function useLink(page: Page, link: string): Promise<boolean> {
  await page.goto(link);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/account/verify') && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await page.waitForLoadState();
  if (response.status() === 400) assert.equal(await page.locator('h1').textContent(), 'Link not valid');
  return new URL(page.url()).pathname === '/account' && (await page.locator('h1').textContent()) !== 'Link not valid';
}

const csrfOf = (page: Page) => page.locator('input[name=_csrf]').first().inputValue();

test('a link works once; a used or expired link is refused and signs nobody in', async (t) => {
  const clock = manualClock(Date.now());
  const h = await buildListening(t, { clock });
  const page = await (await newContext(t, h)).newPage();
  const link = await requestSignInLink(page, h, 'once@example.com', 1);
  assert.equal(await useLink(page, link), true);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/account\/sign-in$/);

  assert.equal(await useLink(page, link), false, 'a used link');
  await page.goto('/account');
  assert.equal(new URL(page.url()).pathname, '/account/sign-in');

  const late = await requestSignInLink(page, h, 'once@example.com', 2);
  clock.advance(15 * 60_000 + 1);
  assert.equal(await useLink(page, late), false, 'an expired link');
  assert.equal((await h.c.accounts.listAccounts()).length, 1);

  const lateToken = new URL(late).searchParams.get('token');
  for (const token of ['', 'psl_short', `psk_${'a'.repeat(40)}`, `${lateToken}x`, `${lateToken}${'x'.repeat(300)}`]) {
    const res = await h.app.inject({ url: `/account/verify?token=${encodeURIComponent(token)}` });
    assert.equal(res.statusCode, 400, token);
    assert.match(res.body, /Link not valid/);
  }
  // A link whose query came through mangled (the token twice, or as an array) is no valid link either.
  for (const query of [`token=${lateToken}&token=${lateToken}`, `token[]=${lateToken}`]) {
    const res = await h.app.inject({ url: `/account/verify?${query}` });
    assert.equal(res.statusCode, 400, query);
    assert.match(res.body, /Link not valid/, query);
  }
});

test('sign out everywhere ends every session and voids links not used yet', async (t) => {
  const h = await buildListening(t);
  const a = await (await newContext(t, h)).newPage();
  const b = await (await newContext(t, h)).newPage();
  const c = await (await newContext(t, h)).newPage();
  assert.equal(await useLink(a, await requestSignInLink(a, h, 'many@example.com', 1)), true);
  assert.equal(await useLink(b, await requestSignInLink(b, h, 'many@example.com', 2)), true);
  const pending = await requestSignInLink(c, h, 'many@example.com', 3);

  await a.getByRole('link', { name: 'Profile' }).click();
  await a.getByRole('button', { name: 'Sign out everywhere' }).click();
  await a.waitForURL(/\/account\/sign-in$/);
  await b.goto('/account');
  assert.equal(new URL(b.url()).pathname, '/account/sign-in', 'the other browser is signed out');
  assert.equal(await useLink(c, pending), false, 'a link mailed before is void');
});

test('a forged or missing CSRF token is refused and changes nothing', async (t) => {
  const h = await buildListening(t);
  const context = await newContext(t, h);
  const page = await context.newPage();
  assert.equal(await useLink(page, await requestSignInLink(page, h, 'csrf@example.com', 1)), true);
  const account = (await h.c.accounts.findAccountByEmail('csrf@example.com'))!;
  await page.goto('/account/keys');
  const token = await csrfOf(page);

  const attempts: Array<[string, Record<string, string>]> = [
    ['/account/keys', { name: 'forged', _csrf: `${token.slice(0, -4)}AAAA` }],
    ['/account/keys', { name: 'missing' }],
    ['/account/sign-out-everywhere', { _csrf: 'not-a-token' }],
    ['/account/profile', { displayName: 'Mallory', _csrf: '' }],
  ];
  for (const [url, form] of attempts) {
    const res = await context.request.post(url, { form, maxRedirects: 0 });
    assert.equal(res.status(), 403, `${url} ${JSON.stringify(form)}`);
    assert.match(await res.text(), /Nothing was changed/);
  }
  // A page of another site holds the session cookie but not this browser's CSRF cookie.
  const other = await newContext(t, h);
  await other.addCookies((await context.cookies()).filter((c) => c.name === 'postshot_session'));
  const crossSite = await other.request.post('/account/keys', {
    form: { name: 'cross', _csrf: token },
    maxRedirects: 0,
  });
  assert.equal(crossSite.status(), 403);

  assert.equal((await h.c.accounts.listKeys(account.id)).length, 0, 'no key was created');
  assert.equal(await h.c.account.store.getDisplayName(account.id), null);
  await page.goto('/account');
  assert.equal(new URL(page.url()).pathname, '/account', 'the session still holds');
  // The genuine token works.
  const ok = await context.request.post('/account/keys', { form: { name: 'real', _csrf: token }, maxRedirects: 0 });
  assert.equal(ok.status(), 200);
  assert.equal((await h.c.accounts.listKeys(account.id)).length, 1);
});

test("another account's key id in a revoke form is refused and the key stays active", async (t) => {
  const h = await buildListening(t);
  const victim = await h.account('pro', 'victim@example.com');
  const [victimKey] = await h.c.accounts.listKeys(victim.accountId);
  const context = await newContext(t, h);
  const page = await context.newPage();
  assert.equal(await useLink(page, await requestSignInLink(page, h, 'mallory@example.com', 1)), true);
  await page.goto('/account/keys');
  const token = await csrfOf(page);

  const revoke = await context.request.post('/account/keys/revoke', {
    form: { _csrf: token, keyId: victimKey.id },
    maxRedirects: 0,
  });
  assert.equal(revoke.status(), 404);
  const confirm = await context.request.get(`/account/keys/${victimKey.id}/revoke`);
  assert.equal(confirm.status(), 404);
  assert.equal((await confirm.text()).includes(victimKey.prefix), false);
  // An id no key could have, however long, is a page that does not exist too.
  const long = await context.request.get(`/account/keys/${victimKey.id}${'x'.repeat(200)}/revoke`);
  assert.equal(long.status(), 404);
  const auth = await authenticate(h.c.accounts, victim.apiKey);
  assert.equal(auth.ok, true, "the victim's key still works");
  assert.equal((await h.c.accounts.listKeys(victim.accountId))[0].revokedAt, null);
});

test('a key past the most an account may hold is refused, naming that most, however the keys were made', async (t) => {
  const h = await buildListening(t);
  const holder = await h.account('pro', 'many@example.com');
  // The operator's CLI is not held to the pages' limit: two more than it.
  for (let i = 0; i < MAX_ACTIVE_KEYS + 1; i++) await issueApiKey(h.c.accounts, holder.accountId, Date.now());
  const page = await (await newContext(t, h)).newPage();
  assert.equal(await useLink(page, await requestSignInLink(page, h, 'many@example.com', 1)), true);
  await page.goto('/account/keys');
  await page.getByLabel('Name').fill('one more');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.waitForLoadState();
  const said = await page.locator('body').innerText();
  assert.match(said, new RegExp(`at most ${MAX_ACTIVE_KEYS} active keys`));
  assert.doesNotMatch(said, /You have 20/, 'the count is not claimed: this account has 22');
  assert.equal((await h.c.accounts.listKeys(holder.accountId)).length, MAX_ACTIVE_KEYS + 2);
});

test('sign-in answers the same for a known and an unknown address; closed sign-up mails only known ones', async (t) => {
  const h = await buildListening(t, { env: { POSTSHOT_SIGNUP: 'closed' } });
  await h.account('free', 'known@example.com');

  async function ask(email: string) {
    const context = await newContext(t, h);
    const page = await context.newPage();
    await page.goto('/account/sign-in');
    const token = await csrfOf(page);
    const res = await context.request.post('/account/sign-in', { form: { email, _csrf: token }, maxRedirects: 0 });
    const headers = { ...res.headers() };
    // content-length differs by the length of the address, which the body comparison covers.
    for (const varying of ['date', 'x-request-id', 'content-length']) delete headers[varying];
    return { status: res.status(), headers, body: (await res.text()).replaceAll(email, 'EMAIL') };
  }

  const known = await ask('known@example.com');
  const unknown = await ask('stranger@example.com');
  assert.equal(known.status, 200);
  assert.deepEqual(unknown, known);
  await waitForMail(h.smtp, 'known@example.com');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(h.smtp.received.filter((m) => m.to.includes('stranger@example.com')).length, 0);
  assert.equal(await h.c.accounts.findAccountByEmail('stranger@example.com'), null);
});

test('sign-in requests are rate limited per address and per client address', async (t) => {
  const h = await buildListening(t);
  const context = await newContext(t, h);
  const page = await context.newPage();
  await page.goto('/account/sign-in');
  const token = await csrfOf(page);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await context.request.post('/account/sign-in', {
      form: { email: 'hammer@example.com', _csrf: token },
      maxRedirects: 0,
    });
    statuses.push(res.status());
    if (res.status() === 429) assert.match(await res.text(), /Too many sign-in requests/);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  const bad = await context.request.post('/account/sign-in', { form: { email: 'not an address', _csrf: token } });
  assert.equal(bad.status(), 400);
  await waitForMail(h.smtp, 'hammer@example.com', 5);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(h.smtp.received.length, 5);

  // 6 requests so far from this client address; 20 an hour are allowed, whatever the addresses.
  const spread: number[] = [];
  for (let i = 0; i < 15; i++) {
    const res = await context.request.post('/account/sign-in', {
      form: { email: `spread${i}@example.com`, _csrf: token },
      maxRedirects: 0,
    });
    spread.push(res.status());
  }
  assert.deepEqual(spread, [...Array(14).fill(200), 429]);
});

test('the session cookie is Secure when the request came over HTTPS', async (t) => {
  // HTTPS as a trusted proxy reports it; the browser itself talks plain HTTP to the test server.
  const h = await buildListening(t, { env: { POSTSHOT_TRUST_PROXY: 'true' } });
  const page = await (await newContext(t, h)).newPage();
  const link = await requestSignInLink(page, h, 'tls@example.com', 1);
  await page.goto(link);
  const csrfCookie = (await page.context().cookies()).find((c) => c.name === 'postshot_csrf')!;
  const res = await h.app.inject({
    method: 'POST',
    url: '/account/verify',
    headers: {
      'x-forwarded-proto': 'https',
      cookie: `postshot_csrf=${csrfCookie.value}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({
      _csrf: await csrfOf(page),
      token: new URL(link).searchParams.get('token')!,
    }).toString(),
  });
  assert.equal(res.statusCode, 303);
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((v) => v.startsWith('postshot_session='));
  assert.ok(cookie);
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; SameSite=Lax/);
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildListening, signInLink, signInWithLink, waitForMail } from '../account-pages.ts';
import { assertProblem } from '../helper.ts';
import { launchChromium } from '../render/chromium.ts';
import { dumpSchema } from '../scaled.ts';

const TEXT_POST = '1900000000000000001';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

test('sign up in the browser, create a key, use it, see the use, revoke it', async (t) => {
  const h = await buildListening(t);
  const context = await browser.newContext({ baseURL: h.url, viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const offsite: string[] = [];
  const cspErrors: string[] = [];
  page.on('request', (r) => !r.url().startsWith(h.url) && offsite.push(r.url()));
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspErrors.push(m.text()));

  // Nothing of the account without a session.
  await page.goto('/account/keys');
  assert.equal(new URL(page.url()).pathname, '/account/sign-in');

  await page.getByLabel('E-mail address').fill('new.customer@example.com');
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

  const mail = await waitForMail(h.smtp, 'new.customer@example.com');
  assert.equal(mail.subject, 'Your postshot sign-in link');
  await page.goto(signInLink(mail));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${h.url}/account`);
  assert.equal(await page.getByTestId('limit').textContent(), '50');
  assert.equal(await page.getByTestId('remaining').textContent(), '50');
  assert.equal(await page.getByTestId('used').textContent(), '0');
  assert.equal(await page.getByTestId('resets').textContent(), 'does not reset');

  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'postshot_session');
  assert.ok(session, 'a session cookie is set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  assert.equal(session.path, '/account');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('ci runner');
  await page.getByRole('button', { name: 'Create key' }).click();
  const apiKey = await page.getByTestId('new-key').inputValue();
  assert.match(apiKey, /^psk_[0-9A-Za-z]{38}$/);
  assert.equal(await page.getByRole('button', { name: 'Copy' }).isVisible(), true);

  const headers = { 'x-api-key': apiKey };
  const usage = await fetch(`${h.url}/api/v1/usage`, { headers });
  assert.equal(usage.status, 200);
  assert.equal((await usage.json()).remaining, 50);
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${h.url}/api/v1/content/${TEXT_POST}`, {
      headers: { ...headers, accept: 'text/markdown' },
    });
    assert.equal(res.status, 200);
    await res.text();
  }

  await page.getByRole('link', { name: 'Overview' }).click();
  assert.equal(await page.getByTestId('used').textContent(), '3');
  assert.equal(await page.getByTestId('remaining').textContent(), '47');
  assert.equal(await page.getByTestId('total-content').textContent(), '3');
  assert.equal(await page.getByTestId('total-screenshot').textContent(), '0');
  // The chart: one content bar today, three requests high.
  const bars = page.locator('svg.chart rect.bar-content');
  assert.equal(await bars.count(), 1);
  assert.match((await bars.first().locator('title').textContent()) ?? '', /: 3 content$/);
  assert.equal(await page.locator('svg.chart rect.bar-screenshot').count(), 0);

  await page.getByRole('link', { name: 'API keys' }).click();
  const row = page.locator('tr', { hasText: 'ci runner' });
  assert.match((await row.textContent()) ?? '', /Active/);
  assert.doesNotMatch((await row.textContent()) ?? '', /Never/, 'last use is shown');
  assert.equal(await page.getByTestId('new-key').count(), 0, 'the full key is shown only once');
  assert.equal((await page.content()).includes(apiKey), false);

  await row.getByRole('link', { name: /Revoke/ }).click();
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.waitForURL(`${h.url}/account/keys`);
  assert.match((await page.locator('tr', { hasText: 'ci runner' }).textContent()) ?? '', /Revoked/);

  // DESIGN.md section 4: a revoked key is 401 on screenshot, 403 on content and usage.
  const shot = await h.app.inject({ url: `/api/v1/screenshot/${TEXT_POST}`, headers });
  assertProblem(shot, 401, 'invalid_api_key');
  assertProblem(await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers }), 403, 'invalid_api_key');
  assertProblem(await h.app.inject({ url: '/api/v1/usage', headers }), 403, 'unknown_api_key');

  assert.deepEqual(offsite, [], 'the pages load nothing from another origin');
  assert.deepEqual(cspErrors, [], 'the pages break no CSP rule');
});

test('the database holds only digests of sign-in links and session tokens', async (t) => {
  const h = await buildListening(t);
  const context = await browser.newContext({ baseURL: h.url });
  t.after(() => context.close());
  const page = await context.newPage();
  const link = await signInWithLink(page, h, 'digest@example.com');
  const session = (await context.cookies()).find((c) => c.name === 'postshot_session')!.value;
  const secrets = [new URL(link).searchParams.get('token')!, session];
  for (const s of secrets) assert.match(s, /^ps[ls]_[0-9A-Za-z]{40}$/);

  let stored: string;
  if (h.scaled) stored = await dumpSchema(h.scaled.schema);
  else {
    await h.c.account.store.close();
    await h.c.accounts.close();
    stored = fs
      .readdirSync(h.dataDir)
      .filter((f) => f.startsWith('postshot.db'))
      .map((f) => fs.readFileSync(path.join(h.dataDir, f)).toString('latin1'))
      .join('');
  }
  assert.ok(stored.includes('digest@example.com'), 'the dump holds the rows');
  for (const s of secrets) assert.equal(stored.includes(s.slice(4, 24)), false, `${s.slice(0, 4)} token body stored`);
});

test('the quickstart offers a hosted image URL only to plans that can host images', async (t) => {
  const h = await buildListening(t);
  const context = await browser.newContext({ baseURL: h.url });
  t.after(() => context.close());
  const page = await context.newPage();
  await signInWithLink(page, h, 'quick@example.com');

  const headings = async () => {
    await page.goto('/account/quickstart');
    return page.locator('h2').allTextContents();
  };
  const free = await headings();
  assert.ok(free.includes('Screenshot as PNG'), free.join(' | '));
  assert.ok(!free.some((h2) => /hosted URL/.test(h2)), 'free answers returnType=url with 403 plan_restricted');
  const [account] = await h.c.accounts.listAccounts();
  await h.c.accounts.setPlan(account.id, 'pro', Date.now());
  assert.ok((await headings()).includes('Screenshot as a hosted URL'));
});

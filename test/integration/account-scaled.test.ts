import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { signInLink, waitForMail } from '../account-pages.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';
import { launchChromium } from '../render/chromium.ts';
import { scaledBackends } from '../scaled.ts';
import { freePort } from '../free-port.ts';
import { startSmtp } from '../smtp.ts';

// Two instances on one PostgreSQL + Redis: a browser (whose cookies, like behind one load
// balancer, go to both) signs in on one and revokes on the other.
test('scaled out: sessions and key revocation hold across two instances', async (t) => {
  const backends = await scaledBackends();
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const smtp = await startSmtp();
  const browser = await launchChromium();
  t.after(async () => {
    await browser.close();
    await smtp.close();
    await upstream.close();
    await backends.cleanup();
  });
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // A data dir per instance, as deployed (each `serve` locks its own).
    const dataDir = makeTempDir();
    const config = loadConfig({
      POSTSHOT_DATA_DIR: dataDir,
      POSTSHOT_LOG_LEVEL: 'silent',
      POSTSHOT_SMTP_URL: smtp.url,
      POSTSHOT_PUBLIC_URL: url,
      ...upstream.env,
      ...backends.env,
    });
    const c = await createContainer(config);
    const app = await buildApp(c);
    await app.listen({ port, host: '127.0.0.1' });
    t.after(async () => {
      await app.close();
      await c.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    urls.push(url);
  }
  const [one, two] = urls;

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${one}/account/sign-in`);
  await page.getByLabel('E-mail address').fill('fleet@example.com');
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await page.goto(signInLink(await waitForMail(smtp, 'fleet@example.com')));
  assert.ok(page.url().startsWith(one));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${one}/account`);
  await page.goto(`${one}/account/keys`);
  await page.getByLabel('Name').fill('fleet');
  await page.getByRole('button', { name: 'Create key' }).click();
  const apiKey = await page.getByTestId('new-key').inputValue();
  const headers = { 'x-api-key': apiKey };
  for (const url of urls) assert.equal((await fetch(`${url}/api/v1/usage`, { headers })).status, 200);

  // The session made on one is honoured by two; revoke the key there.
  await page.goto(`${two}/account/keys`);
  assert.equal(new URL(page.url()).pathname, '/account/keys');
  await page
    .locator('tr', { hasText: 'fleet' })
    .getByRole('link', { name: /Revoke/ })
    .click();
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.waitForURL(`${two}/account/keys`);

  // Refused at once on the instance that did not revoke it.
  assert.equal((await fetch(`${one}/api/v1/usage`, { headers })).status, 403);
  assert.equal((await fetch(`${one}/api/v1/screenshot/1900000000000000001`, { headers })).status, 401);
  assert.equal((await fetch(`${one}/api/v1/content/1900000000000000001`, { headers })).status, 403);

  // Signing out on two ends the session on one, even for a copy of the cookie kept from before.
  const kept = (await context.cookies()).filter((c) => c.name === 'postshot_session');
  await page.goto(`${two}/account`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${two}/account/sign-in`);
  const replay = await browser.newContext();
  await replay.addCookies(kept);
  const stale = await replay.newPage();
  await stale.goto(`${one}/account`);
  assert.equal(new URL(stale.url()).pathname, '/account/sign-in');
  await replay.close();
});

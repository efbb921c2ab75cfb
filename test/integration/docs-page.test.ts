// GET /docs in headless Chromium: the reference page renders from /openapi.json with packaged
// assets only (no request leaves the service, no CSP violation) and try-it calls the service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromiumPath, launchChromium } from '../render/chromium.ts';
import { build } from '../helper.ts';
import { freePort } from '../free-port.ts';

test('/docs renders the API reference offline under its CSP, and try-it calls the service with the key', async (t) => {
  if (!chromiumPath()) return t.skip('Chromium not installed');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const h = await build(t, { env: { POSTSHOT_PUBLIC_URL: origin } });
  await h.app.listen({ port, host: '127.0.0.1' });
  const { apiKey } = await h.account('free');

  const page = await h.app.inject('/docs');
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self';/);
  assert.match(String(page.headers['content-security-policy']), /connect-src 'self'/);

  const browser = await launchChromium();
  t.after(() => browser.close());
  const tab = await browser.newPage();
  const requested: string[] = [];
  const problems: string[] = [];
  tab.on('request', (r) => requested.push(r.url()));
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  tab.on('pageerror', (e) => problems.push(e.message));

  await tab.goto(`${origin}/docs`);
  await tab.locator('#operations-Usage-getUsage').waitFor({ timeout: 20_000 });
  assert.equal(
    await tab
      .locator('.info .title')
      .first()
      .textContent()
      .then((s) => String(s).includes('postshot API')),
    true,
  );
  assert.ok(await tab.locator('#operations-Screenshots-getScreenshot').isVisible());
  // No top bar: its "Explore" box and Fastify's logo are not this service's.
  assert.equal(await tab.locator('.topbar').count(), 0);
  assert.equal(await tab.getByRole('button', { name: 'Explore' }).count(), 0);

  // Authorize with the key, then run GET /api/v1/usage from the page.
  await tab.locator('.auth-wrapper .authorize').first().click();
  await tab.locator('.modal-ux input').first().fill(apiKey);
  await tab.locator('.modal-ux .auth-btn-wrapper .authorize').first().click();
  await tab.locator('.modal-ux .btn-done, .modal-ux .close-modal').first().click();
  await tab.locator('#operations-Usage-getUsage .opblock-summary').click();
  // Try-it is on from the start (uiConfig tryItOutEnabled).
  await tab.locator('#operations-Usage-getUsage .execute').click();
  const status = tab
    .locator('#operations-Usage-getUsage .live-responses-table tr.response .response-col_status')
    .first();
  await status.waitFor({ timeout: 20_000 });
  assert.equal(String(await status.textContent()).trim(), '200');
  const body = await tab.locator('#operations-Usage-getUsage .live-responses-table .microlight').first().textContent();
  const usage = JSON.parse(String(body));
  assert.deepEqual([usage.remaining, usage.plan], [50, 'free']);

  if (process.env.POSTSHOT_DOCS_SCREENSHOT)
    await tab.screenshot({ path: process.env.POSTSHOT_DOCS_SCREENSHOT, fullPage: true });
  assert.ok(requested.length > 3);
  assert.deepEqual(
    requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:')),
    [],
    'every request stays on the service',
  );
  assert.deepEqual(problems, [], 'no script error or CSP violation');
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildListening, signInLink, waitForMail } from '../account-pages.ts';
import { manualClock } from '../helper.ts';
import { launchChromium } from '../render/chromium.ts';
import { scaledMode } from '../scaled.ts';

// Every page at 360 and 1280 px, light and dark, written to POSTSHOT_SCREENSHOT_DIR (default: a
// temporary directory, printed) for a person to look at; the test checks labels and keyboard use.
const OUT = process.env.POSTSHOT_SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'postshot-account-screens');
const DAY = 86_400_000;

/** Every visible control has an accessible name (a label, aria-label or text). */
async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input:not([type=hidden]), button, select, textarea')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => {
        const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label');
        return !labelled && !(el.textContent ?? '').trim();
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

test('screenshots of every page, light and dark, 360 and 1280 px; labelled and keyboard-usable', {
  skip: scaledMode,
}, async (t) => {
  fs.mkdirSync(OUT, { recursive: true });
  const start = Date.now() - 12 * DAY;
  const clock = manualClock(start);
  const h = await buildListening(t, { clock });
  const { accountId } = await h.account('pro', 'screens@example.com');
  const account = (await h.c.accounts.getAccount(accountId))!;
  const endpoints = ['screenshot', 'content', 'content_bulk'];
  for (let d = 0; d <= 12; d++) {
    clock.set(start + d * DAY + 3600_000);
    for (let i = 0; i < (d * 7) % 19; i++) {
      const endpoint = endpoints[(i + d) % 3];
      await h.c.quota.charge(account, endpoint === 'content_bulk' ? 3 : 1, { requestId: `r${d}-${i}`, endpoint });
    }
  }
  clock.set(start + 12 * DAY + 7200_000);
  await h.c.outbox.drain();
  await h.c.accounts.createKey({
    accountId,
    hash: 'a'.repeat(64),
    prefix: 'psk_Old7Ke',
    now: start,
    name: 'old laptop',
  });

  const browser = await launchChromium();
  t.after(() => browser.close());
  const context = await browser.newContext({ baseURL: h.url });
  const page = await context.newPage();
  const shots: string[] = [];
  async function shoot(name: string) {
    assert.deepEqual(await unlabelledControls(page), [], `${name}: every control has a label`);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 800 });
        const file = path.join(OUT, `${name}-${colorScheme}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // Keyboard only: Tab to the address field, type, Tab to the button, Enter.
  await page.goto('/account/sign-in');
  await shoot('sign-in');
  await page.keyboard.press('Tab');
  for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement?.id)) !== 'email'; i++) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
  await page.keyboard.type('screens@example.com');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Send sign-in link');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await shoot('check-email');

  await page.goto(signInLink(await waitForMail(h.smtp, 'screens@example.com')));
  await shoot('verify');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${h.url}/account`);
  await shoot('overview');

  await page.goto('/account/keys');
  await page.getByLabel('Name').fill('production');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key').waitFor();
  await shoot('keys-created');
  await page.goto('/account/keys');
  await page
    .locator('tr', { hasText: 'old laptop' })
    .getByRole('link', { name: /Revoke/ })
    .click();
  await shoot('revoke-confirm');
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.waitForURL(`${h.url}/account/keys`);
  await shoot('keys');
  await page.goto('/account/quickstart');
  await shoot('quickstart');
  await page.goto('/account/profile');
  await page.getByLabel('Display name (optional)').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').waitFor();
  await shoot('profile');
  await page.goto('/account/nope');
  await shoot('not-found');

  // Nothing overflows sideways at 360 px.
  for (const p of ['/account', '/account/keys', '/account/quickstart', '/account/profile']) {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(p);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${p} is ${overflow} px wider than the 360 px viewport`);
  }
  t.diagnostic(`${shots.length} screenshots in ${OUT}`);
});

// Helpers for the account pages tests: a listening app with a real SMTP server, and the mails it sends.
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { build, type BuildTestOptions, type Harness } from './helper.ts';
import { freePort } from './free-port.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from './smtp.ts';

export interface PagesHarness extends Harness {
  url: string;
  smtp: TestSmtp;
}

/** An app listening on loopback whose sign-in mails go to a real SMTP server. */
export async function buildListening(t: TestContext, options: BuildTestOptions = {}): Promise<PagesHarness> {
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const h = await build(t, {
    ...options,
    env: { POSTSHOT_SMTP_URL: smtp.url, POSTSHOT_PUBLIC_URL: url, ...options.env },
  });
  await h.app.listen({ port, host: '127.0.0.1' });
  t.after(() => smtp.close());
  return { ...h, url, smtp };
}

export const SIGN_IN_SUBJECT = 'Your postshot sign-in link';

/** Waits for the n-th sign-in mail to an address (1-based) and returns it. */
export async function waitForMail(smtp: TestSmtp, to: string, n = 1, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = smtp.received.filter((m) => m.to.includes(to) && m.subject === SIGN_IN_SUBJECT);
    if (mails.length >= n) return mails[n - 1];
    if (Date.now() > deadline) throw new Error(`no mail #${n} to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The sign-in link of a mail (from its text part). */
export function signInLink(mail: ReceivedMail): string {
  const m = /(https?:\/\/\S+\/account\/verify\?token=psl_[0-9A-Za-z]+)/.exec(mail.text);
  if (!m) throw new Error(`no sign-in link in mail:\n${mail.text}`);
  return m[1];
}

/** Asks for a link on the sign-in page of `page` (its base URL the app's) and returns it from the n-th mail. */
export async function requestSignInLink(page: Page, h: PagesHarness, email: string, n = 1): Promise<string> {
  await page.goto('/account/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  return signInLink(await waitForMail(h.smtp, email, n));
}

/** Signs an address in as a customer does (the form, the mailed link, its button); returns the link. */
export async function signInWithLink(page: Page, h: PagesHarness, email: string): Promise<string> {
  const link = await requestSignInLink(page, h, email);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${h.url}/account`);
  return link;
}

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { composeSignInMail } from '../../src/account/sign-in-mail.ts';
import { changePlan } from '../../src/auth/admin.ts';
import { FileMailer } from '../../src/notify/file.ts';
import { build, makeTempDir, manualClock, type Harness } from '../helper.ts';
import { freePort } from '../free-port.ts';
import { startSmtp } from '../smtp.ts';
import { waitForMail } from '../account-pages.ts';

const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };
const POST = '1900000000000000001';

async function spend(h: Harness, apiKey: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await h.app.inject({ url: `/api/v1/content/${POST}`, headers: { 'x-api-key': apiKey } });
    assert.equal(r.statusCode, 200);
  }
}

test('each threshold sends exactly one e-mail with the right numbers', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const h = await build(t, {
    env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url, POSTSHOT_MAIL_FROM: 'quota@postshot.test' },
  });
  const { apiKey } = await h.account('free', 'owner@example.com');
  await spend(h, apiKey, 24);
  assert.equal(await h.c.outbox.drain(), 0);
  let spent = 24;
  for (const threshold of [50, 70, 90, 100]) {
    const used = (50 * threshold) / 100;
    await spend(h, apiKey, used - spent);
    spent = used;
    assert.equal(await h.c.outbox.drain(), 1, `${threshold}%`);
    const mail = smtp.received.at(-1)!;
    assert.deepEqual(mail.to, ['owner@example.com']);
    assert.equal(mail.subject, `postshot: ${threshold}% of your Free quota used`);
    assert.match(mail.text, new RegExp(`Used: ${used}\\b`));
    assert.match(mail.text, new RegExp(`Remaining: ${50 - used}\\b`));
    assert.match(mail.text, /Limit: 50\b/);
    assert.match(mail.text, /do not reset/);
    // Plans change only through the operator (README): the mail says whom to ask, as the 403 does.
    assert.match(mail.text, /ask the operator of this service for a paid plan/);
    if (threshold === 100) {
      // No reset to wait for: the refusal lasts until an upgrade.
      assert.match(mail.text, /refused with 403 quota_exceeded until the account moves to a paid plan/);
      assert.doesNotMatch(mail.text, /until then/);
    }
    assert.match(mail.raw, /^From: quota@postshot\.test/m);
    assert.match(mail.raw, /Content-Type: multipart\/alternative/);
    assert.match(mail.raw, /Content-Type: text\/html/);
  }
  const refused = await h.app.inject({ url: `/api/v1/content/${POST}`, headers: { 'x-api-key': apiKey } });
  assert.equal(refused.statusCode, 403);
  assert.equal(await h.c.outbox.drain(), 0);
  assert.equal(smtp.received.length, 4);
});

test('a sender named in POSTSHOT_MAIL_FROM still gives well-formed Message-IDs under its domain', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const h = await build(t, {
    env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url, POSTSHOT_MAIL_FROM: 'postshot <quota@postshot.test>' },
  });
  const { apiKey } = await h.account('free', 'named@example.com');
  await spend(h, apiKey, 25);
  assert.equal(await h.c.outbox.drain(), 1);
  assert.equal((await h.c.account.signIn.request('named@example.com', '127.0.0.1')).ok, true);
  const signIn = await waitForMail(smtp, 'named@example.com');
  for (const mail of [smtp.received[0], signIn]) {
    assert.match(mail.raw, /^From: postshot <quota@postshot\.test>$/m);
    // One id-left, one @ and the sender's domain, in one pair of angle brackets (RFC 5322 msg-id).
    assert.match(mail.raw, /^Message-ID: <[^<>@\s]+@postshot\.test>$/m, mail.subject);
  }
});

test('a bulk request that jumps past a threshold: the mail says it was passed and gives the real share', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const clock = manualClock('2026-01-15T09:00:00Z');
  const h = await build(t, { clock, env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url } });
  const { apiKey } = await h.account('pro');
  await spend(h, apiKey, 149);
  const ids = Array.from({ length: 10 }, (_, i) => String(1900000000000000001n + BigInt(i)));
  const bulk = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    payload: { tweetIds: ids },
  });
  assert.equal(bulk.statusCode, 200);
  const used = 300 - Number(bulk.headers['x-quota-remaining']);
  assert.ok(used >= 153, `used ${used}: past 51 %`);
  assert.equal(await h.c.outbox.drain(), 1);
  const [mail] = smtp.received;
  const share = Math.floor((used * 100) / 300);
  assert.match(mail.text, new RegExp(`^You have passed 50% of your Pro quota: ${share}% is used\\.`, 'm'));
  assert.match(mail.text, new RegExp(`Used: ${used}\\b`));
  assert.doesNotMatch(mail.text, /You have used 50%/);
  assert.doesNotMatch(mail.text, /refused/);
});

test('200 concurrent requests crossing 50 % together send one 50 % e-mail', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const h = await build(t, { env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url } });
  const { apiKey } = await h.account('pro');
  const results = await Promise.all(
    Array.from({ length: 200 }, () =>
      h.app.inject({ url: `/api/v1/content/${POST}`, headers: { 'x-api-key': apiKey } }),
    ),
  );
  assert.ok(results.every((r) => r.statusCode === 200));
  await Promise.all([h.c.outbox.drain(), h.c.outbox.drain()]);
  assert.deepEqual(
    smtp.received.map((m) => m.subject),
    ['postshot: 50% of your Pro quota used'],
  );
  assert.match(smtp.received[0].text, /Your quota resets on \d{4}-\d{2}-\d{2} at 00:00 UTC/);
});

// The outbox is sent later than the charge that crossed the threshold: an operator may change the
// plan in between, and the mail must still describe the plan whose credits were used.
test('a plan changed before the e-mail goes out: the e-mail describes the plan when the threshold was crossed', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const clock = manualClock('2026-01-15T09:00:00Z');
  const h = await build(t, { clock, env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url } });
  const free = await h.account('free', 'was-free@example.com');
  const pro = await h.account('pro', 'was-pro@example.com');
  await spend(h, free.apiKey, 25);
  await spend(h, pro.apiKey, 150);
  clock.set('2026-01-20T09:00:00Z');
  // Free to Pro starts a billing month today; Pro to Free keeps the anchor but has no reset.
  assert.ok((await changePlan(h.c.accounts, free.accountId, 'pro', clock())).ok);
  assert.ok((await changePlan(h.c.accounts, pro.accountId, 'free', clock())).ok);
  assert.equal(await h.c.outbox.drain(), 2);
  const mailTo = (to: string) => smtp.received.find((m) => m.to.includes(to))!;
  const wasFree = mailTo('was-free@example.com');
  assert.equal(wasFree.subject, 'postshot: 50% of your Free quota used');
  assert.match(wasFree.text, /^Plan: Free$/m);
  assert.match(wasFree.text, /^Used: 25$/m);
  assert.match(wasFree.text, /^Limit: 50$/m);
  assert.match(wasFree.text, /Free plan’s 50 credits are a one-time allowance and do not reset/);
  assert.doesNotMatch(wasFree.text, /Pro|resets on/);
  const wasPro = mailTo('was-pro@example.com');
  assert.equal(wasPro.subject, 'postshot: 50% of your Pro quota used');
  assert.match(wasPro.text, /^Plan: Pro$/m);
  assert.match(wasPro.text, /^Remaining: 150$/m);
  assert.match(wasPro.text, /^Limit: 300$/m);
  // The Pro month that started on the 15th resets on the 15th.
  assert.match(wasPro.text, /Your quota resets on 2026-02-15 at 00:00 UTC/);
  assert.doesNotMatch(wasPro.text, /Free|one-time/);
});

// A reservation is committed when its answer is sent: a plan changed while the request ran must
// not make the e-mail its commit causes name the new plan beside the old plan's limit.
test('a plan changed while a request runs: its e-mail names the plan the request was metered against', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const clock = manualClock('2026-01-15T09:00:00Z');
  const h = await build(t, { clock, env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url } });
  const { accountId } = await h.account('pro', 'mid-request@example.com');
  const account = (await h.c.accounts.getAccount(accountId))!;
  const reserved = await h.c.quota.reserve(account, 150, { requestId: 'r1', endpoint: 'content' });
  assert.ok(reserved.ok);
  assert.ok((await changePlan(h.c.accounts, accountId, 'business', clock())).ok);
  await h.c.quota.commit(reserved.reservation);
  assert.equal(await h.c.outbox.drain(), 1);
  const [mail] = smtp.received;
  assert.equal(mail.subject, 'postshot: 50% of your Pro quota used');
  assert.match(mail.text, /^Plan: Pro$/m);
  assert.match(mail.text, /^Limit: 300$/m);
  assert.match(mail.text, /Your quota resets on 2026-02-15 at 00:00 UTC/);
});

test('with the mail server down, messages wait and arrive once when it is back', async (t) => {
  const port = await freePort();
  const clock = manualClock('2026-06-10T12:00:00Z');
  const h = await build(t, { clock, env: { ...NO_RATE, POSTSHOT_SMTP_URL: `smtp://127.0.0.1:${port}` } });
  const { apiKey, accountId } = await h.account('free');
  await spend(h, apiKey, 25);
  assert.equal(await h.c.outbox.drain(), 0, 'nothing is accepted while the server is down');
  clock.advance(3000);
  assert.equal(await h.c.outbox.drain(), 0);
  const [pending] = await h.c.accounts.listOutbox(accountId);
  assert.equal(pending.attempts, 2);
  assert.equal(pending.sentAt, null);

  const smtp = await startSmtp(port);
  t.after(() => smtp.close());
  assert.equal(await h.c.outbox.drain(), 0, 'not before the backoff has passed');
  clock.advance(5000);
  assert.equal(await h.c.outbox.drain(), 1);
  clock.advance(60_000);
  assert.equal(await h.c.outbox.drain(), 0);
  assert.equal(smtp.received.length, 1);
  assert.match(smtp.received[0].subject, /50%/);
});

test('a new monthly period starts fresh thresholds', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const clock = manualClock('2026-01-15T09:00:00Z');
  const h = await build(t, { clock, env: { ...NO_RATE, POSTSHOT_SMTP_URL: smtp.url } });
  const { apiKey } = await h.account('pro');
  await spend(h, apiKey, 150);
  assert.equal(await h.c.outbox.drain(), 1);
  clock.set('2026-02-15T00:00:01Z');
  await spend(h, apiKey, 149);
  assert.equal(await h.c.outbox.drain(), 0);
  await spend(h, apiKey, 1);
  assert.equal(await h.c.outbox.drain(), 1);
  assert.deepEqual(
    smtp.received.map((m) => m.subject),
    ['postshot: 50% of your Pro quota used', 'postshot: 50% of your Pro quota used'],
  );
  assert.match(smtp.received[1].text, /resets on 2026-03-15/);
});

test('without SMTP, each message is written as an .eml file under <data dir>/mail', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('free', 'files@example.com');
  await spend(h, apiKey, 25);
  assert.equal(await h.c.outbox.drain(), 1);
  const dir = path.join(h.dataDir, 'mail');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
  assert.equal(files.length, 1);
  const eml = fs.readFileSync(path.join(dir, files[0]), 'utf8');
  assert.match(eml, /^To: files@example\.com$/m);
  assert.match(eml, /^Subject: postshot: 50% of your Free quota used$/m);
  const txt = fs.readFileSync(path.join(dir, files[0].replace(/\.eml$/, '.txt')), 'utf8');
  assert.match(
    txt,
    /^To: files@example\.com\nSubject: postshot: 50% of your Free quota used\n\nYou have used 50% of your Free quota\./,
  );
});

test('without SMTP, a sign-in link reads whole in the .txt beside its .eml', async () => {
  const dir = makeTempDir();
  const link = `http://127.0.0.1:8080/account/verify?token=${'Ab9_-'.repeat(9)}`;
  const mailer = new FileMailer(dir);
  await mailer.send(
    composeSignInMail({
      to: 'me@example.com',
      from: 'postshot <no-reply@example.com>',
      link,
      validMinutes: 15,
      messageId: '<s1@example.com>',
    }),
  );
  assert.deepEqual(fs.readdirSync(dir).sort(), ['s1@example.com.eml', 's1@example.com.txt']);
  const txt = fs.readFileSync(path.join(dir, 's1@example.com.txt'), 'utf8');
  assert.ok(txt.split('\n').includes(link), txt);
  assert.match(txt, /^To: me@example\.com\nSubject: Your postshot sign-in link\n/);
  // A control character shows as text: the file is read in a terminal.
  await mailer.send({
    to: 'me@example.com',
    from: 'a@example.com',
    subject: 'a\x1b[2Jb',
    html: '<p>x</p>',
    text: 'x\x9by\n',
    messageId: '<s2@example.com>',
  });
  assert.equal(
    fs.readFileSync(path.join(dir, 's2@example.com.txt'), 'utf8'),
    'To: me@example.com\nSubject: a\\u{1b}[2Jb\n\nx\\u{9b}y\n',
  );
  // The .eml is the same message for a mail client, its long lines quoted-printable.
  const eml = fs.readFileSync(path.join(dir, 's1@example.com.eml'), 'utf8');
  assert.match(eml, /^Content-Transfer-Encoding: quoted-printable$/m);
  assert.ok(!eml.split('\n').includes(link));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { OutboxSender } from '../../src/notify/sender.ts';
import { SmtpMailer } from '../../src/notify/smtp.ts';
import { freePort } from '../free-port.ts';
import { build, manualClock } from '../helper.ts';

// A sender claims due quota e-mails for a 60 s lease and sends them one after another. With a
// slow mail server (25 s a message, inside the mailer's timeouts) a batch outlived its lease:
// another instance's sender took the rows over and both sent them.
test('a slow mail server: no quota e-mail is sent twice by two senders', async (t) => {
  const clock = manualClock('2026-11-02T10:00:00Z');
  let other: OutboxSender | null = null;
  let otherPass: Promise<number> | null = null;
  const received: string[] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c));
      stream.on('end', async () => {
        received.push(/^Subject: (.*)$/m.exec(raw)?.[1] ?? '');
        // Each message takes the server 25 s; once a lease is over, the other instance's sender
        // runs its pass (once) while this message is still being accepted.
        clock.advance(25_000);
        if (received.length === 3) await (otherPass ??= other!.drain());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const smtpUrl = `smtp://127.0.0.1:${port}`;
  const h = await build(t, {
    clock,
    env: { POSTSHOT_SMTP_URL: smtpUrl, POSTSHOT_RATE_LIMITS: 'free=100000', POSTSHOT_LOG_LEVEL: 'silent' },
  });
  const mailer = new SmtpMailer(smtpUrl);
  t.after(() => mailer.close());
  other = new OutboxSender(h.c.accounts, mailer, clock, h.c.logger, 'postshot@localhost');
  const { apiKey } = await h.account('free');
  for (let i = 0; i < 50; i++) {
    const r = await h.app.inject({ url: '/api/v1/content/1900000000000000001', headers: { 'x-api-key': apiKey } });
    assert.equal(r.statusCode, 200);
  }

  // Passes as the timers would run them, until every threshold's mail is out.
  for (let i = 0; i < 10 && received.length < 4; i++) {
    await h.c.outbox.drain();
    await otherPass;
    clock.advance(61_000);
  }
  assert.deepEqual(
    [...received].sort(),
    [50, 70, 90, 100].map((p) => `postshot: ${p}% of your Free quota used`).sort(),
    'each threshold once',
  );
});

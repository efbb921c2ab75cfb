// The address the sign-in page takes: one that could disguise itself where it is shown (bidi
// controls, other format or control characters, whitespace) is refused like any invalid address,
// and no mail is written for it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { build } from '../helper.ts';

const REFUSAL = 'Enter a valid e-mail address, such as name@example.com.';

test('sign-in refuses addresses with bidi controls, format or control characters and whitespace; no mail', async (t) => {
  const h = await build(t);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  const form = await fetch(`${base}/account/sign-in`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
  const signIn = (email: string) =>
    fetch(`${base}/account/sign-in`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email }).toString(),
      redirect: 'manual',
    });
  const mailDir = path.join(h.dataDir, 'mail');
  const mails = () => (fs.existsSync(mailDir) ? fs.readdirSync(mailDir).filter((f) => f.endsWith('.eml')) : []);

  for (const email of [
    '\u202Ea@b.co', // RIGHT-TO-LEFT OVERRIDE, the outside check's case
    'a\u2066b@b.co', // LEFT-TO-RIGHT ISOLATE
    'a\u200Fb@b.co', // RIGHT-TO-LEFT MARK
    'a\u200Bb@b.co', // ZERO WIDTH SPACE (Cf)
    'a\u00ADb@b.co', // SOFT HYPHEN (Cf)
    'a\u0085b@b.co', // NEXT LINE (Cc)
    'a\u0007b@b.co', // BELL (Cc)
    'a b@b.co',
    'a\u3000b@b.co', // IDEOGRAPHIC SPACE
    'a\u2028b@b.co', // LINE SEPARATOR
    'a\u3164@example.com', // HANGUL FILLER: drawn blank, so it reads as a@example.com
    'a\uffa0b@b.co', // HALFWIDTH HANGUL FILLER
    'a\u115fb@b.co', // HANGUL CHOSEONG FILLER
    'a\u2800b@b.co', // BRAILLE PATTERN BLANK
  ]) {
    const res = await signIn(email);
    const page = await res.text();
    assert.equal(res.status, 400, JSON.stringify(email));
    assert.match(String(res.headers.get('content-type')), /^text\/html/);
    assert.ok(page.includes(REFUSAL), JSON.stringify(email));
  }
  // A valid address is mailed (after the answer): the mail folder is where a refused one would be.
  const ok = await signIn('ok@b.co');
  assert.equal(ok.status, 200);
  const deadline = Date.now() + 10_000;
  while (mails().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 300));
  const written = mails();
  assert.equal(written.length, 1, `mails: ${written.join(', ')}`);
  assert.match(fs.readFileSync(path.join(mailDir, written[0]), 'utf8'), /^To: ok@b\.co$/m);
  assert.equal(await h.c.accounts.findAccountByEmail('\u202Ea@b.co'), null);
});

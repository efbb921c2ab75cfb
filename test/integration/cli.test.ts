import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { type TestContext, test } from 'node:test';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import { makeTempDir } from '../helper.ts';
import { REPO_DIR } from '../fixtures.ts';
import { PG_URL } from '../scaled.ts';

async function cli(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('accounts, keys and usage from the command line', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = { POSTSHOT_DATA_DIR: dir };

  const created = await cli(env, 'accounts', 'create', '--email', 'cli@example.com', '--plan', 'pro', '--json');
  assert.equal(created.code, 0, created.err);
  const { accountId, apiKey } = JSON.parse(created.out);
  assert.match(accountId, /^acc_/);
  assert.match(apiKey, /^psk_[0-9A-Za-z]{38}$/);

  // One account per address, compared as sign-in at /account compares it.
  const again = await cli(env, 'accounts', 'create', '--email', 'CLI@example.com', '--plan', 'pro', '--json');
  assert.equal(again.code, 1);
  assert.equal(again.out, '');
  assert.equal(again.err, 'postshot: an account with the address CLI@example.com already exists');

  const list = JSON.parse((await cli(env, 'accounts', 'list', '--json')).out);
  assert.deepEqual(
    list.map((a: { id: string; plan: string }) => [a.id, a.plan]),
    [[accountId, 'pro']],
  );

  const usage = JSON.parse((await cli(env, 'usage', accountId, '--json')).out);
  assert.equal(usage.remaining, 300);
  assert.equal(usage.limit, 300);

  assert.equal((await cli(env, 'accounts', 'set-plan', accountId, 'business')).code, 0);
  assert.equal(JSON.parse((await cli(env, 'usage', accountId, '--json')).out).limit, 6000);

  const second = JSON.parse((await cli(env, 'keys', 'create', accountId, '--json')).out);
  const keys = JSON.parse((await cli(env, 'keys', 'list', accountId, '--json')).out);
  assert.equal(keys.length, 2);
  assert.ok(
    keys.every((k: { prefix: string }) => k.prefix.length === 10),
    'listings show a prefix only',
  );
  const listed = (await cli(env, 'keys', 'list', accountId)).out;
  assert.doesNotMatch(listed, new RegExp(second.apiKey));
  assert.match(listed, new RegExp(`^${second.keyId}\\t\\w+…\\tactive\\tcreated \\d{4}-\\S+\\tlast used never$`, 'm'));
  assert.equal((await cli(env, 'keys', 'revoke', second.keyId)).out, `key ${second.keyId} revoked`);
  const revokedAgain = await cli(env, 'keys', 'revoke', second.keyId);
  assert.equal(revokedAgain.code, 0);
  assert.match(revokedAgain.out, new RegExp(`^key ${second.keyId} was already revoked \\d{4}-`));
  const after = JSON.parse((await cli(env, 'keys', 'list', accountId, '--json')).out);
  assert.ok(after.find((k: { id: string }) => k.id === second.keyId).revokedAt);

  const shown = JSON.parse((await cli(env, 'accounts', 'show', accountId, '--json')).out);
  assert.equal(shown.email, 'cli@example.com');
  assert.equal(shown.keys.length, 2);
  // Without --json, lines a reader takes in: the account, its credits, a line per key.
  const lines = (await cli(env, 'accounts', 'show', accountId)).out.trim().split('\n');
  assert.match(lines[0], new RegExp(`^account ${accountId} \\(cli@example\\.com, business\\), created \\d{4}-`));
  assert.match(lines[1], /: 0 used, 6000 of 6000 remaining$/);
  assert.equal(lines[3], 'keys:');
  assert.deepEqual(
    lines.slice(4).map((l) => l.split('\t')[0]),
    after.map((k: { id: string }) => k.id),
  );
  assert.match(lines.find((l) => l.startsWith(second.keyId)) ?? '', /\trevoked \d{4}-/);
  // Named as a customer names one on the account pages, with the same rules.
  const named = JSON.parse((await cli(env, 'keys', 'create', accountId, '--name', '  CI   runner ', '--json')).out);
  assert.match((await cli(env, 'keys', 'list', accountId)).out, new RegExp(`^${named.keyId}\\t.*\\t"CI runner"$`, 'm'));
  assert.equal((await cli(env, 'keys', 'revoke', named.keyId)).code, 0);
  const unnamed = await cli(env, 'keys', 'create', accountId, '--name', 'x'.repeat(61));
  assert.deepEqual(
    [unnamed.code, unnamed.err],
    [1, 'postshot: a key name is 1 to 60 characters, without control characters or bidi overrides'],
  );
  assert.equal((await cli(env, 'keys', 'create', accountId, '--name', 'ci\u202egnp.exe')).code, 1);
  // A name stored before bidi overrides were refused reaches the terminal escaped.
  const store = await openAccountStore(loadConfig(env));
  await store.createKey({
    accountId,
    hash: 'f'.repeat(64),
    prefix: 'psk_0legac',
    now: Date.now(),
    name: 'ci\u202egnp',
  });
  await store.close();
  assert.match((await cli(env, 'keys', 'list', accountId)).out, /\t"ci\\u202egnp"$/m);
});

test('bad commands and values fail with one clear line', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = { POSTSHOT_DATA_DIR: dir };
  const badPlan = await cli(env, 'accounts', 'create', '--email', 'a@b.c', '--plan', 'gold');
  assert.equal(badPlan.code, 1);
  assert.match(badPlan.err, /unknown plan "gold"/);
  assert.equal((await cli(env, 'accounts', 'create', '--email', 'not-an-email')).code, 1);
  // Nothing found names the database searched: an operator pointed at another data dir can tell.
  const db = `sqlite:${path.join(dir, 'postshot.db')}`;
  const missing = await cli(env, 'usage', 'acc_missing');
  assert.equal(missing.code, 1);
  assert.equal(missing.err, `postshot: no account acc_missing in ${db}`);
  assert.equal((await cli(env, 'keys', 'create', 'acc_missing')).err, `postshot: no account acc_missing in ${db}`);
  assert.equal((await cli(env, 'accounts', 'list')).out, `no accounts in ${db}`);
  const noKey = await cli(env, 'keys', 'revoke', 'key_missing');
  assert.equal(noKey.code, 1);
  assert.equal(noKey.err, `postshot: no key key_missing in ${db}`);
  assert.equal((await cli(env, 'frobnicate')).code, 2);
  // A group without its command says what is missing, not that "" is unknown.
  assert.equal(
    (await cli(env, 'accounts')).err,
    'postshot: missing the accounts command (create, list, show, set-plan)',
  );
  assert.equal((await cli(env, 'keys')).err, 'postshot: missing the keys command (create, list, revoke)');
  assert.equal(
    (await cli(env, 'keys', 'rotate')).err,
    'postshot: unknown keys command "rotate" (create, list, revoke)',
  );
  // An unknown flag: one line naming it, with the kebab-case flag it likely meant; no help dump.
  const camel = await cli(env, 'render', '20', '--aspectRatio', '4:5');
  assert.equal(camel.code, 2);
  assert.equal(camel.err, 'postshot: unknown option --aspectRatio; did you mean --aspect-ratio? (see postshot --help)');
  const bogus = await cli(env, 'render', '20', '--bogus');
  assert.equal(bogus.err, 'postshot: unknown option --bogus (see postshot --help)');
  const noId = await cli(env, 'render');
  assert.equal(noId.code, 1);
  assert.match(noId.err, /^postshot: missing the post id: postshot render <id\|url>/);
  const two = await cli(env, 'render', '20', '21');
  assert.deepEqual(
    [two.code, two.err],
    [1, 'postshot: one post at a time: "21" is left over (postshot render <id|url>)'],
  );
  assert.doesNotMatch(noId.err, /empty/);
  const badEnv = await cli({ ...env, POSTSHOT_RATE_LIMITS: 'free=lots' }, 'accounts', 'list');
  assert.equal(badEnv.code, 1);
  assert.match(badEnv.err, /POSTSHOT_RATE_LIMITS/);
});

test('a command fails at once with one line naming the database (without its password) when it is out of reach', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const r = await cli(
    { POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: 'postgres://ops:hunter2-secret@127.0.0.1:1/postshot' },
    'accounts',
    'list',
  );
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(
    r.err,
    /^postshot: cannot open the database postgres:\/\/ops:redacted@127\.0\.0\.1:1\/postshot: connect ECONNREFUSED 127\.0\.0\.1:1$/,
  );
});

test('only accounts create makes a database: other commands refuse a data dir or schema that has none', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'postshot.db');
  const why = 'no postshot database there yet (postshot accounts create makes one)';
  for (const argv of [
    ['accounts', 'list'],
    ['usage', 'acc_x'],
    ['keys', 'list', 'acc_x'],
    ['keys', 'revoke', 'k'],
  ]) {
    const run = await cli({ POSTSHOT_DATA_DIR: dir }, ...argv);
    assert.deepEqual([run.code, run.err], [1, `postshot: cannot open the database sqlite:${file}: ${why}`], `${argv}`);
  }
  assert.equal(fs.existsSync(file), false, 'no file was made');
  // A mistyped command says so, wherever the database is.
  assert.match((await cli({ POSTSHOT_DATA_DIR: dir }, 'accounts', 'lsit')).err, /unknown accounts command "lsit"/);

  const schema = `cli_typo_${process.pid}`;
  const url = `${PG_URL}?schema=${schema}`;
  const listed = await cli({ POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: url }, 'accounts', 'list');
  assert.deepEqual([listed.code, listed.err.endsWith(why)], [1, true], listed.err);
  const pool = new pg.Pool({ connectionString: PG_URL });
  t.after(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });
  const made = await pool.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
  assert.equal(made.rowCount, 0, 'no schema was made');
  const created = await cli(
    { POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: url },
    'accounts',
    'create',
    '--email',
    'a@b.co',
  );
  assert.equal(created.code, 0, created.err);
  assert.match((await cli({ POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: url }, 'accounts', 'list')).out, /a@b\.co/);
});

test('the installed bin refuses an invalid configuration naming the variable', () => {
  const r = spawnSync(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'serve'], {
    env: { ...process.env, PORT: '99999', POSTSHOT_DATA_DIR: makeTempDir() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /PORT: must be between 0 and 65535/);
});

/** The package's samples served as the upstream, and a temporary folder: both gone after the test. */
async function samplesUpstream(t: TestContext) {
  const { startFixtureServer } = await import('../../src/sources/fixture-server.ts');
  const { SAMPLES_DIR } = await import('../fixtures.ts');
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dir = makeTempDir();
  t.after(async () => {
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { upstream, dir };
}

test('postshot render writes a PNG from the configured sources', async (t) => {
  const { upstream, dir } = await samplesUpstream(t);
  const file = path.join(dir, 'card.png');
  const r = await cli(
    { POSTSHOT_DATA_DIR: dir, ...upstream.env },
    'render',
    'https://x.com/acme/status/1900000000000000008',
    '--format',
    'png',
    '--theme',
    'dark',
    '-o',
    file,
  );
  assert.equal(r.code, 0, r.err);
  assert.ok(fs.readFileSync(file).subarray(1, 4).equals(Buffer.from('PNG')));
  // The screenshot options as kebab-case flags, read like query values.
  const framed = path.join(dir, 'framed.png');
  const withOptions = await cli(
    { POSTSHOT_DATA_DIR: dir, ...upstream.env },
    'render',
    '1900000000000000008',
    '--width',
    '400',
    '--aspect-ratio',
    '4:5',
    '--container-background',
    'linear-gradient(90deg, #f00, #00f)',
    '--scale',
    '1',
    '--show-stats',
    'no',
    '-o',
    framed,
  );
  assert.equal(withOptions.code, 0, withOptions.err);
  const { PNG } = await import('pngjs');
  const img = PNG.sync.read(fs.readFileSync(framed));
  assert.deepEqual([img.width, img.height], [432, 540]);
  const webp = await cli(
    { POSTSHOT_DATA_DIR: dir, ...upstream.env },
    'render',
    '1900000000000000008',
    '--format',
    'WEBP',
    '-o',
    path.join(dir, 'c.webp'),
  );
  assert.equal(webp.code, 0, webp.err);
  assert.equal(fs.readFileSync(path.join(dir, 'c.webp')).subarray(8, 12).toString(), 'WEBP');
  const bad = await cli({ POSTSHOT_DATA_DIR: dir, ...upstream.env }, 'render', '1900000000000000008', '--width', '299');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /--width must be an integer from 300 to 1000, got "299"/);
  const missing = await cli({ POSTSHOT_DATA_DIR: dir, ...upstream.env }, 'render', '42');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /not found/);
  const unwritable = path.join(dir, 'no-such-folder', 'card.png');
  const cannot = await cli(
    { POSTSHOT_DATA_DIR: dir, ...upstream.env },
    'render',
    '1900000000000000008',
    '-o',
    unwritable,
  );
  assert.equal(cannot.code, 1);
  assert.equal(cannot.err.trim(), `postshot: cannot write ${unwritable}: ENOENT`);
});

test('postshot render opens no database: it leaves no data dir and runs where one cannot be made', async (t) => {
  const { upstream, dir } = await samplesUpstream(t);
  const dataDir = path.join(dir, 'data');
  const file = path.join(dir, 'card.svg');
  const r = await cli(
    { POSTSHOT_DATA_DIR: dataDir, ...upstream.env },
    'render',
    '1900000000000000001',
    '--format',
    'svg',
    '-o',
    file,
  );
  assert.equal(r.code, 0, r.err);
  assert.ok(fs.readFileSync(file, 'utf8').startsWith('<svg'));
  assert.equal(fs.existsSync(dataDir), false, 'a one-off render writes no data dir');
  // A data dir that is a file (or any place a database cannot be opened) does not matter to it.
  fs.writeFileSync(dataDir, '');
  const again = await cli({ POSTSHOT_DATA_DIR: dataDir, ...upstream.env }, 'render', '1900000000000000001', '-o', file);
  assert.equal(again.code, 0, again.err);
});

/** Starts `postshot demo` with `args` and resolves once it has printed its key and curl lines. */
async function startDemo(...args: string[]) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'demo', ...args], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`demo did not start: ${out}`)), 30_000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl-C')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`demo exited ${code}: ${out}`)));
    });
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return { child, out, err: () => err };
}

test('postshot demo serves the samples offline and prints working curl lines', async () => {
  const { child, out } = await startDemo();
  try {
    const key = /psk_[0-9A-Za-z]{38}/.exec(out)![0];
    const base = /serving (http:\/\/[^\s]+)/.exec(out)![1];
    const usage = await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': key } });
    assert.equal(usage.status, 200);
    assert.equal((await usage.json()).limit, 300);
    const md = await fetch(`${base}/api/v1/content/1900000000000000001`, { headers: { 'x-api-key': key } });
    assert.equal(md.status, 200);
    assert.match(await md.text(), /Shipping day/);
    const png = await fetch(`${base}/api/v1/screenshot/1900000000000000008?format=png`, {
      headers: { 'x-api-key': key },
    });
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.ok(out.includes(`curl -s -H 'X-API-KEY: ${key}' ${base}/api/v1/usage`));
    // The account command line it prints reads the demo's database, where its account is.
    const admin = /\n {2}POSTSHOT_DATA_DIR=(\S+) node bin\/postshot\.js usage (acc_\w+)\n/.exec(out);
    assert.ok(admin, `the demo prints an account command line:\n${out}`);
    const usageCli = spawnSync(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'usage', admin[2]], {
      env: { ...process.env, POSTSHOT_DATA_DIR: admin[1] },
      encoding: 'utf8',
    });
    assert.equal(usageCli.status, 0, usageCli.stderr);
    assert.match(usageCli.stdout, /\(pro\): \d+ used, \d+ of 300 remaining/);
    // A customer signing in on the demo finds the link where the demo says its e-mails go.
    const mailDir = path.join(/e-mails it would send .*: (\S+) \(mail\/\)/.exec(out)![1], 'mail');
    const form = await fetch(`${base}/account/sign-in`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
    const sent = await fetch(`${base}/account/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.headers.getSetCookie().join('; ') },
      body: new URLSearchParams({ _csrf: csrf, email: 'new@example.com' }),
      redirect: 'manual',
    });
    assert.ok(sent.status < 400, `sign-in form: ${sent.status}`);
    // Mail leaves through the outbox, a moment after the answer.
    const linkSent = () =>
      fs.existsSync(mailDir) &&
      fs
        .readdirSync(mailDir)
        .filter((f) => f.endsWith('.eml'))
        .some((f) => /new@example\.com[\s\S]*\/account\/verify/.test(fs.readFileSync(path.join(mailDir, f), 'utf8')));
    for (let i = 0; i < 100 && !linkSent(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(linkSent(), `the sign-in link is in ${mailDir}`);
    // Signed in, the quickstart page's curl lines name posts the demo serves.
    const mail = fs
      .readdirSync(mailDir)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => fs.readFileSync(path.join(mailDir, f), 'utf8'))
      .find((text) => text.includes('new@example.com'))!;
    const link = /(http\S+\/account\/verify\?token=psl_\w+)/.exec(mail)![1];
    const verify = await fetch(link);
    const jar = verify.headers.getSetCookie().map((c) => c.split(';')[0]);
    const verifyPage = await verify.text();
    const signedIn = await fetch(`${base}/account/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
      body: new URLSearchParams({
        _csrf: /name="_csrf" value="([^"]+)"/.exec(verifyPage)![1],
        token: /name="token" value="([^"]+)"/.exec(verifyPage)![1],
      }),
      redirect: 'manual',
    });
    assert.equal(signedIn.status, 303);
    jar.push(...signedIn.headers.getSetCookie().map((c) => c.split(';')[0]));
    const quickstart = await (
      await fetch(`${base}/account/quickstart`, { headers: { cookie: jar.join('; ') } })
    ).text();
    const contentUrl = /(http\S+\/api\/v1\/content\/\d+)/.exec(quickstart)![1];
    const sample = await fetch(contentUrl, { headers: { 'x-api-key': key } });
    assert.equal(sample.status, 200, `${contentUrl}: ${await sample.text()}`);
  } finally {
    child.kill('SIGTERM');
  }
});

test('postshot demo --posts serves your own posts beside the samples, names files that will not render, and refuses a folder with none', async () => {
  const dir = makeTempDir();
  const sample = JSON.parse(
    fs.readFileSync(path.join(REPO_DIR, 'samples', 'upstream', 'fxtwitter', '1900000000000000003.json'), 'utf8'),
  );
  const id = '1234567890123456789';
  const tweet = {
    ...sample.tweet,
    id,
    url: `https://x.com/someone/status/${id}`,
    text: 'Mine, not a sample. ✓',
    lang: 'en',
  };
  fs.mkdirSync(path.join(dir, 'upstream', 'fxtwitter'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'upstream', 'fxtwitter', `${id}.json`), JSON.stringify({ ...sample, tweet }));
  // Two that will not render, each named with why at start rather than met as a 404 later.
  fs.writeFileSync(path.join(dir, 'upstream', 'fxtwitter', '1234567890123456780.json'), '{"code":200,"tweet":');
  const { author: _, ...authorless } = tweet;
  fs.writeFileSync(
    path.join(dir, 'upstream', 'fxtwitter', '1234567890123456781.json'),
    JSON.stringify({ ...sample, tweet: { ...authorless, id: '1234567890123456781' } }),
  );

  fs.writeFileSync(
    path.join(dir, 'upstream', 'fxtwitter', '1234567890123456782.json'),
    JSON.stringify({
      ...sample,
      tweet: { ...tweet, id: '1234567890123456782', created_at: 'yesterday', created_timestamp: undefined },
    }),
  );
  // A body copied from another post with only its file renamed: served, and the mismatch named.
  fs.writeFileSync(
    path.join(dir, 'upstream', 'fxtwitter', '1234567890123456790.json'),
    JSON.stringify({ ...sample, tweet }),
  );
  fs.writeFileSync(path.join(dir, 'upstream', 'fxtwitter', '0123.json'), JSON.stringify({ ...sample, tweet }));
  fs.writeFileSync(path.join(dir, 'upstream', 'fxtwitter', 'hello.json'), JSON.stringify({ ...sample, tweet }));

  const { child, out, err } = await startDemo('--posts', dir);
  try {
    assert.match(out, new RegExp(`Your post ids \\(.*\\): ${id} 1234567890123456790\n`));
    assert.match(
      err(),
      /will not render 1234567890123456780: .*; upstream\/fxtwitter\/1234567890123456780\.json: not JSON/,
    );
    assert.match(
      err(),
      /will not render 1234567890123456781: .*; upstream\/fxtwitter\/1234567890123456781\.json: .*author/,
    );
    assert.match(err(), /will not render 1234567890123456782: .*: tweet\.created_at "yesterday" is not a date/);
    assert.match(err(), new RegExp(`1234567890123456790 holds post ${id}: .*name the file ${id}\\.json`));
    assert.match(err(), /will not render 0123: the file name is not a post id/);
    assert.match(err(), /will not render upstream\/fxtwitter\/hello\.json: not named <post id>\.json/);
    assert.ok(out.includes(`/api/v1/screenshot/${id}?format=png' -o ${id}.png`), 'a curl line for your own post');
    assert.match(out, /with \d+ sample posts and 2 of yours \(no network needed\)/);
    assert.match(out, /Sample post ids: 1900000000000000001 /);
    const key = /psk_[0-9A-Za-z]{38}/.exec(out)![0];
    const base = /serving (http:\/\/[^\s]+)/.exec(out)![1];
    const md = await fetch(`${base}/api/v1/content/${id}`, { headers: { 'x-api-key': key } });
    assert.equal(md.status, 200);
    assert.match(await md.text(), /Mine, not a sample\./);
    const svg = await fetch(`${base}/api/v1/screenshot/${id}?format=svg`, { headers: { 'x-api-key': key } });
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    const sampleMd = await fetch(`${base}/api/v1/content/1900000000000000001`, { headers: { 'x-api-key': key } });
    assert.match(await sampleMd.text(), /Shipping day/);
    // The CLI line the demo prints renders your post from the demo's upstream, with no network.
    const line = /\n {2}((?:POSTSHOT_\w+_URL=\S+ )+)node bin\/postshot\.js render /.exec(out);
    assert.ok(line, 'the demo prints a CLI line');
    const env = Object.fromEntries(
      line[1]
        .trim()
        .split(' ')
        .map((pair) => pair.split('=', 2)),
    );
    const file = path.join(makeTempDir(), 'mine.png');
    const rendered = spawnSync(
      process.execPath,
      [path.join(REPO_DIR, 'bin', 'postshot.js'), 'render', id, '-o', file],
      {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      },
    );
    assert.equal(rendered.status, 0, rendered.stderr);
    assert.equal(fs.readFileSync(file).subarray(1, 4).toString(), 'PNG');
  } finally {
    child.kill('SIGTERM');
  }

  const empty = makeTempDir();
  const broken = makeTempDir();
  fs.mkdirSync(path.join(broken, 'upstream', 'syndication'), { recursive: true });
  fs.writeFileSync(path.join(broken, 'upstream', 'syndication', '42.json'), '[]');
  const misnamed = makeTempDir();
  fs.mkdirSync(path.join(misnamed, 'upstream', 'fxtwitter'), { recursive: true });
  fs.writeFileSync(path.join(misnamed, 'upstream', 'fxtwitter', 'hello.json'), '{}');
  const badManifest = makeTempDir();
  fs.cpSync(path.join(dir, 'upstream'), path.join(badManifest, 'upstream'), { recursive: true });
  fs.mkdirSync(path.join(badManifest, 'media'));
  fs.writeFileSync(path.join(badManifest, 'media', 'manifest.json'), '{"https://pbs.twimg.com/a.jpg": ');
  const goneImage = makeTempDir();
  fs.cpSync(path.join(dir, 'upstream'), path.join(goneImage, 'upstream'), { recursive: true });
  fs.mkdirSync(path.join(goneImage, 'media'));
  fs.writeFileSync(
    path.join(goneImage, 'media', 'manifest.json'),
    JSON.stringify({ 'https://pbs.twimg.com/media/gone.jpg': { file: 'gone.jpg', contentType: 'image/jpeg' } }),
  );
  for (const [folder, said] of [
    [badManifest, /--posts .*: media\/manifest\.json is not JSON/],
    [
      goneImage,
      /--posts .*: media\/manifest\.json: "https:\/\/pbs\.twimg\.com\/media\/gone\.jpg" names gone\.jpg, which is not a file in media\//,
    ],
    [empty, /--posts .*: no posts in it/],
    [misnamed, /--posts .*: no posts in it \(.*; found upstream\/fxtwitter\/hello\.json\)/],
    [path.join(empty, 'missing'), /--posts .*: no such folder/],
    [
      broken,
      /--posts .*: none of its posts would render:\n {2}42: unavailable .*; upstream\/syndication\/42\.json: body is not an object/,
    ],
  ] as const) {
    const refused = spawnSync(
      process.execPath,
      [path.join(REPO_DIR, 'bin', 'postshot.js'), 'demo', '--posts', folder],
      {
        env: { ...process.env, PORT: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, said);
  }
});

test('postshot demo on a port in use says so in one line and leaves no data behind', async (t) => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => taken.close());
  const port = (taken.address() as net.AddressInfo).port;
  const demoDirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('postshot-demo-'));
  const before = new Set(demoDirs());
  const refused = spawnSync(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'demo'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(refused.status, 1, refused.stderr);
  assert.equal(
    refused.stderr.trim(),
    `postshot: cannot start: port ${port} on 127.0.0.1 is already in use (set PORT or HOST)`,
  );
  assert.deepEqual(
    demoDirs().filter((n) => !before.has(n)),
    [],
    'the demo removed its data dir',
  );
});

// `postshot openapi | head` closes the pipe after a few bytes: the command ends quietly, not with
// an unhandled EPIPE and its stack trace.
test('a command whose reader stops early ends quietly', () => {
  const bin = path.join(REPO_DIR, 'bin', 'postshot.js');
  const r = spawnSync(
    'bash',
    ['-c', `"${process.execPath}" "${bin}" openapi | head -c 100 >/dev/null; exit \${PIPESTATUS[0]}`],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
});

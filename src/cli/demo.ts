import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { createAccountWithKey } from '../auth/admin.ts';
import { loadConfig, type Config } from '../config.ts';
import { createContainer } from '../container.ts';
import { startFixtureServer } from '../sources/fixture-server.ts';
import { checkOwnPosts, readOwnPosts } from './demo-posts.ts';
import { findFreePort } from './free-port.ts';
import { CliError, type CliIo } from './index.ts';
import { describeStartupFailure } from './startup-failure.ts';

export const SAMPLES_DIR = path.resolve(import.meta.dirname, '..', '..', 'samples');

/**
 * Offline demo: the fixture upstream serves the package's sample posts (and the user's own from
 * `posts`, ahead of the samples), a throwaway data dir holds a pro account, and the printed curl
 * lines work as they are. Images a post names without a file are drawn as placeholders.
 */
export async function runDemo(base: Readonly<Config>, io: CliIo, options: { posts?: string } = {}): Promise<number> {
  const own = options.posts === undefined ? null : readOwnPosts(options.posts);
  const upstream = await startFixtureServer({ roots: own ? [own.root, SAMPLES_DIR] : [SAMPLES_DIR] }).catch(
    (err: Error) => {
      // A media manifest that cannot be read is the user's file: named, not a stack trace.
      throw new CliError(`--posts ${options.posts}: ${err.message}`);
    },
  );
  // PORT=0 picks a free port up front, so the public URL (and the printed curl lines) are right.
  const port = base.port === 0 ? await findFreePort(base.host) : base.port;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-demo-'));
  const config = loadConfig({
    PORT: String(port),
    HOST: base.host,
    POSTSHOT_DATA_DIR: dataDir,
    // The samples recorded for syndication alone make FxTwitter fail on purpose (the fallback):
    // its warnings would read as faults in a demo.
    POSTSHOT_LOG_LEVEL: 'error',
    ...upstream.env,
  });
  // The quickstart page's curl lines name two samples: X's first posts are not in the demo.
  const container = await createContainer(config, { examplePostIds: ['1900000000000000001', '1900000000000000013'] });
  const created = await createAccountWithKey(
    container.accounts,
    { email: 'demo@example.com', plan: 'pro' },
    Date.now(),
  );
  if (!created.ok) throw new Error(created.message);
  const app = await buildApp(container);
  await container.start();
  const stop = async () => {
    await app.close();
    await container.close();
    await upstream.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const checked = own && (await checkOwnPosts(own, (id) => container.posts.getPost(id)));
  if (checked && checked.ids.length === 0) {
    await stop();
    throw new CliError(`--posts ${options.posts}: none of its posts would render:\n  ${checked.problems.join('\n  ')}`);
  }
  for (const problem of checked?.problems ?? []) io.err(`postshot: --posts: will not render ${problem}`);
  for (const note of checked?.misfiled ?? []) io.err(`postshot: --posts: ${note}`);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // A port in use is said as `serve` says it, and the throwaway data goes with the demo.
    await stop();
    throw new CliError(`cannot start: ${describeStartupFailure(err, config)}`);
  }

  const key = created.value.apiKey;
  const url = config.publicUrl;
  const ids = upstream.ids();
  const samples = ids.filter((id) => !own?.held.includes(id));
  const yours = checked ? ` and ${checked.ids.length} of yours` : '';
  io.out(`postshot demo: serving ${url} with ${samples.length} sample posts${yours} (no network needed)`);
  io.out(`demo account ${created.value.account.id} (pro plan), API key:\n\n  ${key}\n`);
  io.out('Try:');
  const h = `-H 'X-API-KEY: ${key}'`;
  for (const line of [
    `curl -s ${h} ${url}/api/v1/usage`,
    `curl -s ${h} ${url}/api/v1/content/1900000000000000001`,
    `curl -s ${h} '${url}/api/v1/content/1900000000000000011?includeStats=false'`,
    `curl -s ${h} -H 'Content-Type: application/json' -d '{"tweetIds":["1900000000000000001","1900000000000000013","404"]}' ${url}/api/v1/content/tweets`,
    `curl -s ${h} ${url}/api/v1/screenshot/1900000000000000001 -o post.svg`,
    `curl -s ${h} '${url}/api/v1/screenshot/1900000000000000008?format=png' -o photos.png`,
    `curl -s ${h} '${url}/api/v1/screenshot/1900000000000000002?format=png&theme=dark' -o arabic-dark.png`,
    `curl -s ${h} '${url}/api/v1/screenshot/1900000000000000011?format=html' -o quote.html`,
    `curl -s ${h} '${url}/api/v1/screenshot/1900000000000000010?format=png&returnType=url'`,
    ...(checked
      ? [
          `curl -s ${h} ${url}/api/v1/content/${checked.ids[0]}`,
          `curl -s ${h} '${url}/api/v1/screenshot/${checked.ids[0]}?format=png' -o ${checked.ids[0]}.png`,
        ]
      : []),
  ])
    io.out(`  ${line}`);
  // The CLI fetches posts as the service does: pointed at this demo's upstream, it needs no network.
  const upstreamEnv = Object.entries(upstream.env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  io.out(
    `\nThe CLI renders them too while the demo runs:\n  ${upstreamEnv} node bin/postshot.js render ${samples[0]} -o post.png`,
  );
  // The operator commands read POSTSHOT_DATA_DIR (./data by default): without it they would look
  // in another database and answer "no account" for the demo's own.
  io.out(
    `\nThe account commands (accounts, keys, usage) work on its data:\n  POSTSHOT_DATA_DIR=${dataDir} node bin/postshot.js usage ${created.value.account.id}`,
  );
  io.out(`\nSample post ids: ${samples.join(' ')}`);
  if (own && checked) io.out(`Your post ids (${own.root}): ${checked.ids.join(' ')}`);
  // The customer flow (/account) e-mails its sign-in links: with no SMTP they are files here.
  io.out(`Data, and the e-mails it would send (sign-in links, quota notices): ${dataDir} (mail/)`);
  io.out('Ctrl-C stops the demo and removes its data.');

  return new Promise<number>((resolve) => {
    const end = () => void stop().then(() => resolve(0));
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
  });
}

// The fixture server behind `postshot demo --posts DIR`: what a folder's manifest may serve.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';

test('a manifest entry naming a file outside media/ is refused at start, not served', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-fixture-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'media'));
  fs.writeFileSync(path.join(root, 'secret.txt'), 'not an image');
  for (const file of ['../secret.txt', 'sub/../../secret.txt']) {
    fs.writeFileSync(
      path.join(root, 'media', 'manifest.json'),
      JSON.stringify({ 'https://pbs.twimg.com/media/a.jpg': { file, contentType: 'image/jpeg' } }),
    );
    const started = startFixtureServer({ roots: [root], port: 0 });
    started.then(
      (server) => server.close(),
      () => {},
    );
    await assert.rejects(started, /names .*secret\.txt, which is not a file in media\//, file);
  }
});

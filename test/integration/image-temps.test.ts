import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../free-port.ts';
import { makeTempDir } from '../helper.ts';
import { startServe } from '../serve-process.ts';

// A hosted image is written to a temp file, then renamed. A kill -9 mid-write leaves the temp
// file: `serve` removes those at start, or every crash under load would leave megabytes behind.
test('serve removes the temp files of image writes a crash cut off, and nothing else', async (t) => {
  const dir = makeTempDir();
  const images = path.join(dir, 'images');
  fs.mkdirSync(images);
  const abandoned = path.join(images, '.0f8b8c3e-5a3b-4d8e-9a8e-3c1f2a4b5c6d.tmp');
  const stored = path.join(images, `${'a'.repeat(64)}.png`);
  const other = path.join(images, 'notes.tmp');
  for (const f of [abandoned, stored, other]) fs.writeFileSync(f, 'x');
  const port = await freePort();
  const serve = startServe({ POSTSHOT_DATA_DIR: dir, PORT: String(port) });
  t.after(async () => {
    serve.child.kill('SIGKILL');
    await serve.done;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 200 && fs.existsSync(abandoned); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(fs.existsSync(abandoned), false, `the abandoned temp file is removed; stderr: ${serve.stderr()}`);
  assert.equal(fs.existsSync(stored), true, 'a stored image stays');
  assert.equal(fs.existsSync(other), true, 'a file the store did not name stays');
});

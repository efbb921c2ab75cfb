import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleService } from '../../src/bundle.mjs';

const REPO = path.resolve(import.meta.dirname, '..', '..');

test('the service starts from one plain-JavaScript bundle that finds files beside its sources', async () => {
  const url = await bundleService();
  assert.ok(url, 'the bundle is made');
  const file = fileURLToPath(url);
  assert.match(file, /node_modules\/\.cache\/postshot\/service-[0-9a-f]{16}\.mjs$/);
  const code = fs.readFileSync(file, 'utf8');
  assert.ok(!/from ["']tsx/.test(code), 'the bundle does not load tsx');
  assert.match(code, /from ["']fastify["']/, 'packages stay external');
  // Paths relative to a source file (migrations) point into src/, not into the cache folder.
  assert.ok(code.includes(JSON.stringify(path.join(REPO, 'src', 'storage', 'accounts'))), 'import.meta.dirname kept');
  assert.equal((await bundleService())?.href, url.href, 'the same sources make the same file');
  // Run as the executable runs it.
  const run = spawnSync(process.execPath, [file, '--help'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Usage:/);
});

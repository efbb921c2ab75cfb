import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderWorkerScript } from '../../src/render/worker-script.ts';

test('render workers start from a plain-JavaScript bundle, without the TypeScript loader', async () => {
  const url = await renderWorkerScript();
  const file = fileURLToPath(url);
  assert.match(file, /node_modules\/\.cache\/postshot\/render-worker-[0-9a-f]{16}\/render-worker\.mjs$/);
  const code = fs.readFileSync(file, 'utf8');
  assert.ok(!/from ["']tsx/.test(code), 'the bundle does not load tsx');
  assert.match(code, /from ["']@takumi-rs\/core["']/, 'packages stay external');
  assert.equal((await renderWorkerScript()).href, url.href, 'made once per process');
});

/** Child processes of this process that have exited and were never reaped. */
function zombieChildren(): number[] {
  const kids = fs
    .readdirSync('/proc/self/task')
    .flatMap((t) => fs.readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
    .map(Number);
  return kids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
    } catch {
      return false;
    }
  });
}

test('making the bundle leaves no esbuild process behind, not even an exited one', {
  skip: process.platform !== 'linux',
}, async () => {
  await renderWorkerScript();
  // An exited child is reaped as its exit is seen, on the next turns of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(zombieChildren(), []);
});

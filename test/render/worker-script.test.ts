import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderWorkerScript } from '../../src/render/worker-script.ts';

test('render workers start from a plain-JavaScript bundle, without the TypeScript loader', () => {
  const url = renderWorkerScript();
  const file = fileURLToPath(url);
  assert.match(file, /node_modules\/\.cache\/postshot\/render-worker-[0-9a-f]{16}\/render-worker\.mjs$/);
  const code = fs.readFileSync(file, 'utf8');
  assert.ok(!/from ["']tsx/.test(code), 'the bundle does not load tsx');
  assert.match(code, /from ["']@takumi-rs\/core["']/, 'packages stay external');
  assert.equal(renderWorkerScript().href, url.href, 'made once per process');
});

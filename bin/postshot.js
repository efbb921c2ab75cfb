#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=1 --heap-growing-percent=40
// The settings on the first line are read only at process start; README's "Performance" says
// what each is for, docs/performance.md ("Process settings") what it measured. `node bin/postshot.js`
// skips that line: set them yourself when starting it that way.
// No build step between a clone and a server: the TypeScript sources are bundled at start
// (src/bundle.mjs), or loaded through tsx when a bundle cannot be made.
import { bundleService } from '../src/bundle.mjs';

const bundle = await bundleService();
if (bundle) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}

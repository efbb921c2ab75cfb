#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=1 --heap-growing-percent=40
// Process settings read only at start (docs/performance.md, "Process settings", says why, with
// the measurements): MALLOC_ARENA_MAX=2 caps glibc's per-thread malloc arenas, which otherwise
// keep freed render buffers; --max-semi-space-size=1 keeps the young generation, and the answer
// buffers it holds, small; --heap-growing-percent=40 keeps the old generation near what is live.
// `node bin/postshot.js` skips this line: set them yourself when starting it that way.
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

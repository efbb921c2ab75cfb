#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MIMALLOC_PURGE_DELAY=100 node --max-semi-space-size=4
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates its own malloc arena and keeps what
// is freed there. With the render worker, libuv's pool (deflate, resvg, sharp) and libvips' own
// threads, that retained 50-60 MB of the service's peak under PNG load (2 cores: 421-461 MB
// without, 392-404 MB with; same throughput). glibc reads it only at process start, hence here.
// MIMALLOC_PURGE_DELAY=100: resvg allocates through its own mimalloc, which gives freed memory
// back to the kernel 10 ms after it is freed. A card's 5 MB pixmap and its copy were fresh pages
// on every render: ~2,600 page faults per PNG under load, and on this VM a fault sometimes cost
// 6 µs instead of 1. Kept for 100 ms, the render worker reuses them for the next card (resvg runs
// on the worker's thread for this: renderer.ts). With that, PNG load at c=8 on 2 cores took 44-45
// instead of 50-51 ms of CPU per PNG, at a lower peak RSS; 30 ms was too short to keep them.
// mimalloc reads it when resvg loads; the render workers share this environment.
// --max-semi-space-size=4: the main thread's young generation. V8 applies the flag to every isolate,
// so the render pool clears it before it starts a worker, which sets its own (pool.ts).
// A request's garbage is small and short-lived; V8's default let the young generation grow with
// the request rate and the service's peak RSS with it: PNG then Markdown load at c=8 peaked at
// 349-386 MB with 4 MB semi-spaces against 380-399 MB without the flag (459 MB at 16), at the
// same Markdown throughput (scratch load test, 2 cores).
// Not --single-threaded-gc: it cut CPU per PNG under load by ~10 % on 2 cores, but peak RSS rose
// 10-45 MB (one bench run at 404 MB), past the 400 MB budget.
// `node bin/postshot.js` skips this line: set the variables and the flag yourself when starting it that way.
// The package runs its TypeScript sources through tsx: no build step between a clone and a server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');

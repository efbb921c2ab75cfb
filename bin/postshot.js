#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MIMALLOC_PURGE_DELAY=100 node --max-semi-space-size=4
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates its own malloc arena and keeps what
// is freed there. With the render worker, libuv's pool (deflate, resvg, sharp) and libvips' own
// threads, that retained 50-60 MB of the service's peak under PNG load (2 cores: 421-461 MB
// without, 392-404 MB with; same throughput). glibc reads it only at process start, hence here.
// MIMALLOC_PURGE_DELAY=100: resvg allocates through its own mimalloc, which gives freed memory
// back to the kernel 10 ms after it is freed. A card's 5 MB pixmap and its copy were therefore
// fresh pages on every render: ~2,600 page faults per PNG under load, and on this VM a fault
// sometimes cost 6 µs instead of 1. Kept for 100 ms, the memory is reused by the next card:
// PNG load at c=8 (2 cores) went from 28.0-30.1 to 30.6-31.9 PNG/s, CPU per PNG from 50-54 ms to
// 47-49 ms, faults to ~730 per PNG, the 1-photo PNG alone from 42.5 to 38 ms, at the same peak
// RSS (366-367 MB). Longer delays (1 s, never) kept each libuv thread's pixmaps and peaked at
// 393-430 MB. mimalloc reads it when resvg loads; the render workers share this environment.
// --max-semi-space-size=4: the main thread's young generation (the render workers set their own).
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

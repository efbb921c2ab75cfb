#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 --single-threaded-gc
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates its own malloc arena and keeps what
// is freed there. With the render worker, libuv's pool (deflate, resvg, sharp) and libvips' own
// threads, that retained 50-60 MB of the service's peak under PNG load (2 cores: 421-461 MB
// without, 392-404 MB with; same throughput). glibc reads it only at process start, hence here.
// --max-semi-space-size=4: the main thread's young generation (the render workers set their own).
// A request's garbage is small and short-lived; V8's default let the young generation grow with
// the request rate and the service's peak RSS with it: PNG then Markdown load at c=8 peaked at
// 349-386 MB with 4 MB semi-spaces against 380-399 MB without the flag (459 MB at 16), at the
// same Markdown throughput (scratch load test, 2 cores).
// --single-threaded-gc: V8 collects on the thread that allocated instead of adding helper threads.
// On 2 cores the helpers only took CPU from the other thread (the render worker's helpers from the
// event loop and libuv's raster and deflate, and back): CPU per PNG under load fell from 42-46 to
// 37-44 ms and PNG/s rose in each of 8 alternating pairs, for 8-15 MB more peak RSS (scratch load
// test, bench posts, c=8).
// `node bin/postshot.js` skips this line: set the variable and flag yourself when starting it that way.
// The package runs its TypeScript sources through tsx: no build step between a clone and a server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');

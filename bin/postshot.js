#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates its own malloc arena and keeps what
// is freed there. With the render worker, libuv's pool (deflate, resvg, sharp) and libvips' own
// threads, that retained 50-60 MB of the service's peak under PNG load (2 cores: 421-461 MB
// without, 392-404 MB with; same throughput). glibc reads it only at process start, hence here.
// --max-semi-space-size=4: the main thread's young generation (the render workers set their own).
// A request's garbage is small and short-lived; V8's default let the young generation grow with
// the request rate and the service's peak RSS with it: PNG then Markdown load at c=8 peaked at
// 349-386 MB with 4 MB semi-spaces against 380-399 MB without the flag (459 MB at 16), at the
// same Markdown throughput (scratch load test, 2 cores).
// Not --single-threaded-gc: it cut CPU per PNG under load by ~10 % on 2 cores, but peak RSS rose
// 10-45 MB (one bench run at 404 MB), past the 400 MB budget.
// `node bin/postshot.js` skips this line: set the variable and flag yourself when starting it that way.
// The package runs its TypeScript sources through tsx: no build step between a clone and a server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');

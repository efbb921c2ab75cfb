#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates its own malloc arena and keeps what
// is freed there. With the render worker, libuv's pool (deflate, resvg, sharp) and libvips' own
// threads, that retained 50-60 MB of the service's peak under PNG load (2 cores: 421-461 MB
// without, 392-404 MB with; same throughput). glibc reads it only at process start, hence here.
// `node bin/postshot.js` skips this line: set the variable yourself when starting it that way.
// The package runs its TypeScript sources through tsx: no build step between a clone and a server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');

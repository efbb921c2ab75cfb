// Run by pool.test.ts in a process started with --max-semi-space-size=4, as bin/postshot.js
// starts the service: prints how large a render worker's young generation grows (MB).
import { RenderPool } from '../../../src/render/pool.ts';
import type { Post } from '../../../src/sources/post.ts';

const pool = new RenderPool(1, 30_000, () => new URL('./scripted-worker.mjs', import.meta.url));
const out = await pool.run({ text: 'young' } as unknown as Post, new Map(), { format: 'svg', theme: 'light' });
console.log(out.bytes.toString());
await pool.close();

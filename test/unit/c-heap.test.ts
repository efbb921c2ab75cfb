import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const MODULE = pathToFileURL(path.resolve(import.meta.dirname, '../../src/render/c-heap.ts')).href;

// In a process with the render processes' allocator settings, buffers freed below one still in
// use stay resident (glibc trims only the top of its heap) until trimHeap() returns them.
const CHILD = `
import fs from 'node:fs';
const { trimHeap } = await import(${JSON.stringify(MODULE)});
const rssMb = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
let blocks = [];
const pins = [];
for (let i = 0; i < 96; i++) {
  blocks.push(Buffer.alloc(1 << 20, 1));
  pins.push(Buffer.alloc(64 << 10, 1));
}
blocks = null;
gc();
await new Promise((r) => setTimeout(r, 50));
gc();
const before = rssMb();
const trimmed = trimHeap();
console.log(JSON.stringify({ trimmed, before, after: rssMb(), pins: pins.length }));
`;

test('trimHeap gives memory freed below live blocks back to the system', { skip: process.platform !== 'linux' }, () => {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: String(32 << 20),
      MALLOC_TRIM_THRESHOLD_: String(32 << 20),
    },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const { trimmed, before, after } = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  if (!trimmed) {
    assert.fail('malloc_trim could not be called here (not glibc?)');
  }
  // 96 MB were freed; most of it was still resident before the trim.
  assert.ok(before - after > 48, `RSS ${before.toFixed(0)} MB before the trim, ${after.toFixed(0)} MB after`);
});

test('heapInUse counts what the C heap handed out and has not had back', { skip: process.platform !== 'linux' }, () => {
  // Node allocates a Buffer's bytes with calloc: 128 of 1 MB, then freed by a full collection.
  // Measured once what loading the module left is collected.
  const child = `
const { heapInUse } = await import(${JSON.stringify(MODULE)});
gc();
await new Promise((r) => setTimeout(r, 50));
gc();
const start = heapInUse();
let blocks = Array.from({ length: 128 }, () => Buffer.alloc(1 << 20, 1));
const held = heapInUse();
blocks = null;
gc();
await new Promise((r) => setTimeout(r, 50));
gc();
console.log(JSON.stringify({ start, held, freed: heapInUse() }));
`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', child], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const { start, held, freed } = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  assert.ok(start !== null, 'mallinfo2 could not be called here (not glibc 2.33+?)');
  const mb = (n: number) => n / (1 << 20);
  // The process's own allocations come and go meanwhile: a few MB (it once freed 5.4 MB).
  assert.ok(
    mb(held - start) >= 112,
    `in use: ${mb(start).toFixed(1)} MB, then ${mb(held).toFixed(1)} MB holding 128 MB`,
  );
  assert.ok(
    mb(held - freed) >= 112,
    `in use: ${mb(held).toFixed(1)} MB holding, ${mb(freed).toFixed(1)} MB once freed`,
  );
});

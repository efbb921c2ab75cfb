// A render process that speaks the pool's protocol but follows the post's text instead of drawing:
// "hang" never answers, "spin" never answers and blocks the process, "fail" answers with an error, "crash" throws out of the worker; anything
// else answers after `delay` ms with the text and how many jobs this worker held at once.
// "young" answers with the size its young generation grows to under a render-like load (MB).
// "spike" takes 200 MB, gives it back and answers with its RSS then (MB).
// Every answer carries the process's peak resident memory, as the render worker's do.
import fs from 'node:fs';
import v8 from 'node:v8';

function growYoungGeneration() {
  // Many short-lived objects with a large share surviving one scavenge: V8 grows the young
  // generation to its limit.
  let keep = [];
  for (let i = 0; i < 6e6; i++) {
    keep.push({ i });
    if (keep.length > 200_000) keep = [];
  }
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / (1 << 20);
}

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const send = (reply) => process.send({ ...reply, peakMb: peakMb() });

let held = 0;
process.on('message', async (task) => {
  held++;
  const peak = held;
  const text = task.post.text;
  if (text === 'hang') return;
  // Holds the process's only thread, as the engine's native code does.
  if (text === 'spin') for (;;);
  // Holds memory until the pool kills the process for it.
  if (text === 'hog') {
    const blocks = [];
    for (let i = 0; i < 64; i++) {
      blocks.push(Buffer.alloc(16 << 20, 1));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return;
  }
  if (text === 'crash') throw new Error('worker crashed');
  if (text === 'spike') {
    // Filled, so every page is resident; unreachable once the call returns.
    Buffer.alloc(200 << 20, 1);
    globalThis.gc();
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    held--;
    return send({
      id: task.id,
      ok: true,
      bytes: new TextEncoder().encode(`${rss}|1|${process.pid}`),
      contentType: 'text/plain',
    });
  }
  if (text === 'young') {
    const bytes = new TextEncoder().encode(String(growYoungGeneration()));
    return send({ id: task.id, ok: true, bytes, contentType: 'text/plain' });
  }
  await new Promise((resolve) => setTimeout(resolve, task.post.delay ?? 20));
  held--;
  if (text === 'fail') return send({ id: task.id, ok: false, error: 'failed on purpose' });
  const bytes = new TextEncoder().encode(`${text}|${peak}|${process.pid}`);
  send({ id: task.id, ok: true, bytes, contentType: 'text/plain' });
});
process.send({ ready: true });

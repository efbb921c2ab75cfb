// A render worker that speaks the pool's protocol but follows the post's text instead of drawing:
// "hang" never answers, "fail" answers with an error, "crash" throws out of the worker; anything
// else answers after `delay` ms with the text and how many jobs this worker held at once.
import { parentPort } from 'node:worker_threads';

let held = 0;
parentPort.on('message', async (task) => {
  held++;
  const peak = held;
  const text = task.post.text;
  if (text === 'hang') return;
  if (text === 'crash') throw new Error('worker crashed');
  await new Promise((resolve) => setTimeout(resolve, task.post.delay ?? 20));
  held--;
  if (text === 'fail') return parentPort.postMessage({ id: task.id, ok: false, error: 'failed on purpose' });
  const bytes = new TextEncoder().encode(`${text}|${peak}|${process.pid}`);
  parentPort.postMessage({ id: task.id, ok: true, bytes, contentType: 'text/plain' });
});
parentPort.postMessage({ ready: true });

// Opens a SQLite store at the same instant as its sibling workers (a shared barrier), so their
// connections race on a fresh file; answers 'ok' or the error.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { url, barrier, module } = workerData;
const { openSqliteStore } = await import(module);
const flags = new Int32Array(barrier);
Atomics.add(flags, 1, 1);
Atomics.wait(flags, 0, 0, 10_000);
try {
  const store = openSqliteStore(url);
  // Its own address: one account per address, and this test is about the file, not that rule.
  await store.createAccount({ email: `race-${threadId}@example.com`, plan: 'free', now: Date.now() });
  await store.close();
  parentPort.postMessage('ok');
} catch (err) {
  parentPort.postMessage(String(process.env.RACE_STACK ? err.stack : err.message));
}

// Loopback helpers for tests and benches that start servers of their own.
import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Asks `url` every 100 ms until it answers 2xx; false when it has not after `attempts` tries. */
export async function waitUntilOk(url: string, attempts = 300): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

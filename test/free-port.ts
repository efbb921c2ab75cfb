// Loopback helpers for tests and benches that start servers of their own.
import fs from 'node:fs';
import net from 'node:net';

/** The ports the kernel hands out on its own (listen on port 0, every outgoing connection's local port). */
function readEphemeralRange(): [number, number] {
  try {
    const [start, end] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(start) && Number.isInteger(end) && start <= end) return [start, end];
  } catch {}
  return [32_768, 60_999];
}

/** Ports outside the ephemeral range to draw from: below it, or above it when it starts low. */
function chooseRange(): [number, number] {
  const [start, end] = readEphemeralRange();
  if (start > 11_000) return [10_000, start - 1];
  if (end < 64_000) return [end + 1, 65_535];
  // The kernel may hand out nearly every port: no range is safe, a collision stays possible.
  return [10_000, 65_535];
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server the caller starts next. It
 * is drawn at random from outside the kernel's ephemeral range: a port the kernel had picked
 * (listen on port 0) it could give next to any outgoing connection, and with test files running
 * side by side one sometimes held it when the server came to listen (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const [low, high] = chooseRange();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found in ${low}-${high}`);
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

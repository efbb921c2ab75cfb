// Loopback helpers for tests and benches that start servers of their own.
import fs from 'node:fs';
import net from 'node:net';

/**
 * The first port the kernel hands out on its own (listen on port 0, and every outgoing
 * connection's local port). A port below it is never taken by a connection meanwhile.
 */
function ephemeralStart(): number {
  try {
    const start = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(start) && start > 11_000) return start;
  } catch {}
  return 32_768;
}

const LOWEST = 10_000;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server the caller starts next. It
 * is drawn at random from below the kernel's ephemeral range: a port the kernel had picked (listen
 * on port 0) it could give next to any outgoing connection, and with test files running side by
 * side one sometimes held it when the server came to listen (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found in ${LOWEST}-${end - 1}`);
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

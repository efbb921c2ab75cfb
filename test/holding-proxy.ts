import net from 'node:net';

/**
 * A TCP pass-through that can hold what clients send: while held, their bytes are kept (not
 * dropped) and reach the service, in order, on release(). A request to the service is thereby
 * made to wait as long as the test wants, then answered normally.
 */
export async function holdingProxy(port: number) {
  let holding = false;
  let heldBytes = 0;
  const held: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.on('data', (d) => {
      if (!holding && held.length === 0) upstream.write(d);
      else {
        heldBytes += d.length;
        held.push(() => upstream.write(d));
      }
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Bytes held since hold(). */
    get heldBytes() {
      return heldBytes;
    },
    hold: () => {
      holding = true;
      heldBytes = 0;
    },
    release: () => {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

import net from 'node:net';

/**
 * A pass-through that can stall, as a network that black-holes flows: while stalled, new
 * connections are accepted and wait; the connections open when it stalled stay open and never
 * pass a byte again (nothing closes them). After resume() only new connections work.
 */
export async function stallingProxy(port: number) {
  let stalled = false;
  let epoch = 0;
  const sockets = new Set<net.Socket>();
  const waiting: Array<() => void> = [];
  const server = net.createServer((client) => {
    client.on('error', () => {});
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const open = () => {
      const born = epoch;
      const live = () => !stalled && born === epoch;
      const upstream = net.connect(port, '127.0.0.1');
      upstream.on('error', () => {});
      client.on('data', (d) => live() && upstream.write(d));
      upstream.on('data', (d) => live() && client.write(d));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    if (stalled) waiting.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
      epoch++;
    },
    resume: () => {
      stalled = false;
      for (const open of waiting.splice(0)) open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

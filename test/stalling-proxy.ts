import net from 'node:net';

/** A pass-through that can stall: connections stay open and accepted, no byte passes. */
export async function stallingProxy(port: number) {
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const waiting: Array<() => void> = [];
  const server = net.createServer((client) => {
    client.on('error', () => {});
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const open = () => {
      const upstream = net.connect(port, '127.0.0.1');
      upstream.on('error', () => {});
      client.on('data', (d) => stalled || upstream.write(d));
      upstream.on('data', (d) => stalled || client.write(d));
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

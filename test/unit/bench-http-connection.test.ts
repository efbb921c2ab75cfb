// The bench's HTTP client reads whole answers however the service frames and splits them.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { HttpConnection } from '../../bench/http-connection.ts';

const BIG = Buffer.alloc(3 << 20, 'x');

test('the bench client reads sized, chunked, empty and large answers on one connection, and reconnects', async (t) => {
  const sockets = new Set<unknown>();
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    if (req.url === '/sized') res.end('hello');
    else if (req.url === '/chunked') {
      res.write('one,');
      setTimeout(() => res.end('two'), 5);
    } else if (req.url === '/empty') res.writeHead(204).end();
    else if (req.url === '/big') res.end(BIG);
    else if (req.url === '/echo') req.pipe(res);
    else if (req.url === '/close') res.writeHead(200, { connection: 'close' }).end('bye');
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const c = new HttpConnection(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.after(() => c.close());

  assert.deepEqual(await c.request({ path: '/sized' }), { status: 200, body: Buffer.from('hello') });
  assert.equal((await c.request({ path: '/chunked' })).body.toString(), 'one,two');
  assert.equal((await c.request({ path: '/empty' })).status, 204);
  assert.ok((await c.request({ path: '/big' })).body.equals(BIG));
  const echo = await c.request({ method: 'POST', path: '/echo', body: '{"a":"é"}' });
  assert.equal(echo.body.toString(), '{"a":"é"}');
  assert.equal((await c.request({ path: '/missing' })).status, 404);
  assert.equal(sockets.size, 1, 'one kept-alive connection');
  assert.equal((await c.request({ path: '/close' })).body.toString(), 'bye');
  assert.equal((await c.request({ path: '/sized' })).body.toString(), 'hello');
  assert.equal(sockets.size, 2, 'a new connection once the server closed the last');
});

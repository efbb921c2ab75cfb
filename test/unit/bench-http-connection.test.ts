// The bench's HTTP client reads whole answers however a server frames and splits them.
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import { HttpConnection } from '../../bench/http-connection.ts';

const BIG = Buffer.alloc(3 << 20, 'x');

async function listen(t: TestContext, server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

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
  const c = new HttpConnection(await listen(t, server));
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

test('the bench client reads answers split anywhere, with hints and trailers; refuses bad framing', async (t) => {
  // Answers written by hand, a byte at a time where it matters, to the first word of the request.
  const answers: Record<string, string[]> = {
    split: [...'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'],
    hints: ['HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'],
    trailers: [...'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n'],
    badsize: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
    old: ['HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold'],
    silent: [],
  };
  let connections = 0;
  let dropped = false;
  const server = net.createServer((socket) => {
    connections++;
    let seen = '';
    socket.on('data', async (d) => {
      seen += d.toString();
      const end = seen.indexOf('\r\n\r\n');
      if (end < 0) return;
      const name = seen.slice(5, seen.indexOf(' ', 5));
      seen = seen.slice(end + 4);
      if (name === 'drop' && !dropped) {
        // Closes a kept-alive connection as a request arrives, as an idle timeout racing it does.
        dropped = true;
        socket.destroy();
        return;
      }
      if (name === 'drop') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nagain');
        return;
      }
      if (name === 'idle') {
        // Answers, then closes the connection without saying so, as an idle timeout does.
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nidle');
        return;
      }
      for (const piece of answers[name] ?? []) {
        socket.write(piece);
        await new Promise((r) => setImmediate(r));
      }
    });
  });
  const c = new HttpConnection(await listen(t, server));
  t.after(() => c.close());

  assert.equal((await c.request({ path: '/split' })).body.toString(), 'hello');
  assert.equal((await c.request({ path: '/hints' })).body.toString(), 'ok');
  assert.equal((await c.request({ path: '/trailers' })).body.toString(), 'abc');
  assert.equal((await c.request({ path: '/split' })).body.toString(), 'hello', 'the trailers were read whole');
  assert.equal((await c.request({ path: '/old' })).body.toString(), 'old');
  assert.equal((await c.request({ path: '/idle' })).body.toString(), 'idle');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal((await c.request({ path: '/split' })).body.toString(), 'hello', 'a new connection after the idle close');
  const open = connections;
  assert.equal((await c.request({ path: '/drop' })).body.toString(), 'again', 'a GET the server dropped is sent again');
  assert.equal(connections, open + 1);
  const before = connections;
  await assert.rejects(c.request({ path: '/badsize' }), /not a chunk size/);
  assert.equal((await c.request({ path: '/split' })).body.toString(), 'hello', 'a new connection after bad framing');
  assert.equal(connections, before + 1);

  const silent = c.request({ path: '/silent' });
  await assert.rejects(c.request({ path: '/split' }), /already waiting/);
  c.close();
  await assert.rejects(silent, /closed by the client/);
});

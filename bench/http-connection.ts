// One kept-alive HTTP/1.1 connection that sends a request and reads its whole answer, as wrk
// and h2load do: the bench times the service, and node:http's client added its own parsing and
// stream events to every answer (docs/performance.md, "How to measure").
import net from 'node:net';

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

export interface HttpRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const CHUNK_SIZE = /^[0-9a-f]+(?:;.*)?$/i;

type Parsed = { answer: HttpAnswer; length: number; close: boolean } | { need: number };

/**
 * The answer at the start of `buf` and its length in bytes; while it is incomplete, the length
 * it will need when its head gives one (Content-Length), else 0. Throws on what is not HTTP.
 */
function parseAnswer(buf: Buffer): Parsed {
  let headStart = 0;
  for (;;) {
    const headEnd = buf.indexOf(HEAD_END, headStart);
    if (headEnd < 0) return { need: 0 };
    const head = buf.subarray(headStart, headEnd).toString('latin1');
    const line = /^HTTP\/1\.([01]) (\d{3})/.exec(head);
    if (!line) throw new Error(`not an HTTP answer: ${JSON.stringify(head.slice(0, 80))}`);
    const status = Number(line[2]);
    const start = headEnd + HEAD_END.length;
    // Informational answers (100 Continue, 103 Early Hints) come before the answer itself.
    if (status < 200) {
      headStart = start;
      continue;
    }
    const close = line[1] === '0' ? !/\r\nconnection:\s*keep-alive/i.test(head) : /\r\nconnection:\s*close/i.test(head);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
    if (length !== undefined) {
      const end = start + Number(length);
      return buf.length < end
        ? { need: end }
        : { answer: { status, body: buf.subarray(start, end) }, length: end, close };
    }
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return readChunks(buf, start, status, close);
    if (status === 204 || status === 304) return { answer: { status, body: Buffer.alloc(0) }, length: start, close };
    throw new Error('an answer without Content-Length or chunked encoding');
  }
}

/** A chunked body from `start`, re-read from its first chunk on every call (answers here are small). */
function readChunks(buf: Buffer, start: number, status: number, close: boolean): Parsed {
  const chunks: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return { need: 0 };
    const sizeLine = buf.subarray(at, lineEnd).toString('latin1');
    if (!CHUNK_SIZE.test(sizeLine)) throw new Error(`not a chunk size: ${JSON.stringify(sizeLine.slice(0, 40))}`);
    const size = Number.parseInt(sizeLine, 16);
    const data = lineEnd + CRLF.length;
    if (size === 0) {
      // The last chunk, then trailer fields if any, then an empty line.
      if (buf.length < data + CRLF.length) return { need: 0 };
      const end = buf.subarray(data, data + CRLF.length).equals(CRLF)
        ? data + CRLF.length
        : buf.indexOf(HEAD_END, data) + HEAD_END.length;
      if (end < HEAD_END.length) return { need: 0 };
      return { answer: { status, body: Buffer.concat(chunks) }, length: end, close };
    }
    if (buf.length < data + size + CRLF.length) return { need: 0 };
    if (!buf.subarray(data + size, data + size + CRLF.length).equals(CRLF)) throw new Error('a chunk without its CRLF');
    chunks.push(buf.subarray(data, data + size));
    at = data + size + CRLF.length;
  }
}

/** Not for HEAD: its answer's Content-Length describes a body that never comes. */
export class HttpConnection {
  private socket: net.Socket | null = null;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes the answer being read needs in all, once its head has told. */
  private need = 0;
  private busy = false;
  private waiting: { resolve: (a: HttpAnswer) => void; reject: (e: Error) => void } | null = null;
  private readonly host: string;
  private readonly port: number;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.host = hostname;
    this.port = Number(port) || 80;
  }

  /**
   * Sends one request and reads its answer; one at a time. A GET on a kept-alive connection that
   * the service closed before answering is sent again once on a new one, as browsers do.
   */
  async request(r: HttpRequest): Promise<HttpAnswer> {
    if (this.busy) throw new Error('a request is already waiting on this connection');
    this.busy = true;
    try {
      const reused = this.socket !== null;
      try {
        return await this.send(r);
      } catch (err) {
        const unanswered = (err as Error).message === 'connection closed' && this.size === 0;
        if (!reused || !unanswered || (r.method ?? 'GET') !== 'GET') throw err;
        return await this.send(r);
      }
    } finally {
      this.busy = false;
    }
  }

  close(): void {
    this.fail(new Error('connection closed by the client'));
  }

  private async send(r: HttpRequest): Promise<HttpAnswer> {
    const socket = await this.connected();
    const body = r.body === undefined ? null : Buffer.from(r.body);
    const headers = {
      host: `${this.host}:${this.port}`,
      ...r.headers,
      ...(body ? { 'content-length': String(body.length) } : {}),
    };
    const head = `${r.method ?? 'GET'} ${r.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(body ? Buffer.concat([Buffer.from(head), body]) : head);
    });
  }

  private connected(): Promise<net.Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, this.host);
      socket.setNoDelay(true);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        // Events of a socket this connection has since let go of are not its business.
        socket.on('data', (data: Buffer) => this.socket === socket && this.read(data));
        socket.on('error', (err) => this.socket === socket && this.fail(err));
        socket.on('close', () => this.socket === socket && this.fail(new Error('connection closed')));
        this.socket = socket;
        this.parts = [];
        this.size = 0;
        this.need = 0;
        resolve(socket);
      });
    });
  }

  private read(data: Buffer): void {
    this.parts.push(data);
    this.size += data.length;
    // A large answer arrives in many reads: joined once, when all of it is there.
    if (this.size < this.need) return;
    const received = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [received];
    let parsed: Parsed;
    try {
      parsed = parseAnswer(received);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    if ('need' in parsed) {
      this.need = parsed.need;
      return;
    }
    const rest = received.subarray(parsed.length);
    this.parts = rest.length ? [rest] : [];
    this.size = rest.length;
    this.need = 0;
    const waiting = this.waiting;
    this.waiting = null;
    // The service ends this connection: the next request opens another.
    if (parsed.close) this.drop();
    waiting?.resolve(parsed.answer);
  }

  /** Lets the socket go; a request still waiting fails with `err`. */
  private fail(err: Error): void {
    this.drop();
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }

  private drop(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}

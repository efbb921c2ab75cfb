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

type Parsed = { answer: HttpAnswer; length: number; close: boolean } | { need: number };

/**
 * The answer at the start of `buf` and its length in bytes; while it is incomplete, the length
 * it will need when its head gives one (Content-Length), else 0.
 */
function parseAnswer(buf: Buffer): Parsed {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) return { need: 0 };
  const head = buf.subarray(0, headEnd).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
  if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(head.slice(0, 80))}`);
  const start = headEnd + HEAD_END.length;
  const close = /\r\nconnection:\s*close/i.test(head);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
  if (length !== undefined) {
    const end = start + Number(length);
    return buf.length < end
      ? { need: end }
      : { answer: { status, body: buf.subarray(start, end) }, length: end, close };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    if (status === 204 || status === 304) return { answer: { status, body: Buffer.alloc(0) }, length: start, close };
    throw new Error('an answer without Content-Length or chunked encoding');
  }
  const chunks: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return { need: 0 };
    const size = Number.parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
    const dataEnd = lineEnd + CRLF.length + size;
    if (buf.length < dataEnd + CRLF.length) return { need: 0 };
    if (size === 0) return { answer: { status, body: Buffer.concat(chunks) }, length: dataEnd + CRLF.length, close };
    chunks.push(buf.subarray(lineEnd + CRLF.length, dataEnd));
    at = dataEnd + CRLF.length;
  }
}

/** Not for HEAD: its answer's Content-Length describes a body that never comes. */
export class HttpConnection {
  private socket: net.Socket | null = null;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes the answer being read needs in all, once its head has told. */
  private need = 0;
  private waiting: { resolve: (a: HttpAnswer) => void; reject: (e: Error) => void } | null = null;
  private readonly host: string;
  private readonly port: number;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.host = hostname;
    this.port = Number(port);
  }

  /** Sends one request and reads its answer; one at a time. Reconnects when the service closed an idle connection. */
  async request(r: HttpRequest): Promise<HttpAnswer> {
    if (this.waiting) throw new Error('a request is already waiting on this connection');
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
      socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connected(): Promise<net.Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
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
    if (parsed.close) this.close();
    waiting?.resolve(parsed.answer);
  }

  private fail(err: Error): void {
    this.socket?.destroy();
    this.socket = null;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }
}

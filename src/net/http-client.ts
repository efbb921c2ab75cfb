import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type HttpErrorKind = 'timeout' | 'too_large' | 'network' | 'blocked';

export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    /** The system error code (ENOTFOUND, ECONNREFUSED, ...) when the network failed. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface GetOptions {
  /** For the whole exchange: connect, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
  /** DNS resolution hook (the SSRF guard refuses private addresses here, after resolution). */
  lookup?: LookupFunction;
  signal?: AbortSignal;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** One GET, no redirects followed, body capped at `maxBytes`. Rejects with HttpError. */
export function httpGet(url: URL, options: GetOptions): Promise<HttpResponse> {
  const mod = url.protocol === 'https:' ? https : http;
  const agent = url.protocol === 'https:' ? agents.https : agents.http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new HttpError('timeout', `no complete answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () => fail(new HttpError('timeout', 'aborted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const req = mod.request(
      url,
      {
        method: 'GET',
        agent: options.lookup ? false : agent,
        lookup: options.lookup,
        headers: { 'accept-encoding': 'identity', ...options.headers },
      },
      (res) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          fail(new HttpError('too_large', `body of ${declared} bytes exceeds ${options.maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) fail(new HttpError('too_large', `body exceeds ${options.maxBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) return fail(new HttpError('network', 'connection closed mid-body'));
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', (err) => fail(new HttpError('network', err.message)));
        res.on('aborted', () => fail(new HttpError('network', 'connection reset mid-body')));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      fail(new HttpError(err.code === 'EBLOCKED' ? 'blocked' : 'network', err.message, err.code));
    });
    req.end();
  });
}

import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import type { Plan } from '../src/quota/plans.ts';
import { build, type Harness, makeTempDir } from './helper.ts';
import { selfSignedCert } from './self-signed.ts';

export interface Http2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/** A service listening over TLS (so clients speak HTTP/2), an account of `plan`, and a session to it. */
export async function startHttp2(t: TestContext, plan: Plan = 'pro') {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const h: Harness = await build(t, { https: selfSignedCert(dir) });
  const { apiKey, accountId } = await h.account(plan);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  client.on('error', () => {});
  t.after(() => client.destroy());
  return { h, client, apiKey, accountId };
}

/**
 * The answer to a request on the session, read whole once its body ends or the stream or its
 * session closes: a stream whose request body was never ended may not close after the answer.
 */
export function readAnswer(req: http2.ClientHttp2Stream): Promise<Http2Answer> {
  return new Promise((resolve) => {
    let answer: Http2Answer = { status: 0, headers: {}, body: '' };
    req.on('response', (headers) => {
      answer = { ...answer, status: Number(headers[':status']), headers };
    });
    req.on('data', (d) => {
      answer.body += d;
    });
    req.on('error', () => {});
    req.on('end', () => resolve(answer));
    req.on('close', () => resolve(answer));
    req.session?.once('close', () => resolve(answer));
  });
}

/** A GET on the session. */
export function getOn(client: http2.ClientHttp2Session, path: string, headers: Record<string, string>) {
  const req = client.request({ ':path': path, ...headers });
  req.end();
  return readAnswer(req);
}

import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../problem.ts';

/** Node's HTTP/1.1 parser refuses request headers past this (its default maxHeaderSize): 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Holds HTTP/2 requests to the same 16 KiB of headers (431) as HTTP/1.1 ones: Node's HTTP/2
 * server took about 64 KiB of them, four times what the service answers anywhere else.
 */
export function registerHttp2HeaderLimit(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersionMajor < 2) return done();
    let bytes = 0;
    for (const field of request.raw.rawHeaders) bytes += Buffer.byteLength(field) + 2;
    if (bytes <= MAX_HEADER_BYTES) return done();
    sendProblem(request, reply, 'headers_too_large', 'The request headers are larger than 16 KiB.');
  });
}

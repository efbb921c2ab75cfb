import { constants, type ServerHttp2Stream } from 'node:http2';
import type { FastifyInstance } from 'fastify';
import { ProblemError, sendProblem } from '../problem.ts';

const TOO_SLOW = 'The request body was not received in time.';

/**
 * Holds HTTP/2 requests to the deadline Node's `requestTimeout` holds HTTP/1.1 ones to: the body
 * received whole within `ms` of the headers, or 408. Node applies that option to HTTP/1.1 only,
 * so a body trickled a byte at a time kept its stream open for as long as the client liked.
 */
export function registerHttp2BodyDeadline(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const stream = (request.raw as { stream?: ServerHttp2Stream }).stream;
    // HTTP/1.1 (Node's own limit), or no body at all (END_STREAM came with the headers).
    if (!stream || stream.endAfterHeaders) return done();
    const timer = setTimeout(() => {
      if (request.raw.readableEnded || stream.destroyed) return;
      // The body parser, when it is reading, fails with the refusal and the error handler answers;
      // otherwise it is answered here.
      if (request.raw.listenerCount('error') > 0)
        request.raw.emit('error', new ProblemError('request_timeout', TOO_SLOW));
      else if (!reply.sent) sendProblem(request, reply, 'request_timeout', TOO_SLOW);
      // The rest of the body is not wanted (RFC 9113 §8.1): RST_STREAM NO_ERROR once answered.
      const drop = () => stream.close(constants.NGHTTP2_NO_ERROR);
      if (stream.writableFinished) drop();
      else stream.once('finish', drop);
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    request.raw.once('end', clear);
    stream.once('close', clear);
    done();
  });
}

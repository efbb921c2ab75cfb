import type { Http2Session } from 'node:http2';
import type { FastifyInstance } from 'fastify';

/**
 * Ends every open HTTP/2 session gracefully when the app closes: GOAWAY lets the streams already
 * running finish and sends new requests elsewhere. Node before 24 leaves them open on close, so
 * close (and serve's shutdown) waited on any client that kept its session, until it timed out.
 */
export function closeHttp2SessionsOnClose(app: FastifyInstance): void {
  const sessions = new Set<Http2Session>();
  app.server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  app.addHook('preClose', (done) => {
    for (const session of sessions) if (!session.closed && !session.destroyed) session.close();
    done();
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { sendProblem } from '../problem.ts';

function isHttps(request: FastifyRequest): boolean {
  // request.protocol honours X-Forwarded-Proto only when trustProxy says the proxy is trusted.
  return request.protocol === 'https';
}

export function registerSecurityHooks(app: FastifyInstance, c: Container): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (isHttps(request)) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (
      c.config.requireHttps &&
      !isHttps(request) &&
      !request.url.startsWith('/healthz') &&
      !request.url.startsWith('/readyz')
    ) {
      return sendProblem(
        request,
        reply,
        'https_required',
        'This API is served over HTTPS only; repeat the request with https://.',
      );
    }
  });
}

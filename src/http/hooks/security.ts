import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { sendProblem } from '../problem.ts';

/** On every answer, framework-level ones included; embeddable documents drop X-Frame-Options. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

const HSTS = 'max-age=31536000; includeSubDomains';

function isHttps(request: FastifyRequest): boolean {
  // request.protocol honours X-Forwarded-Proto only when trustProxy says the proxy is trusted.
  return request.protocol === 'https';
}

/** X-Request-Id and the security headers: what every answer carries, whoever produces it. */
export function applyBaseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id);
  reply.headers(SECURITY_HEADERS);
  if (isHttps(request)) reply.header('Strict-Transport-Security', HSTS);
}

export function registerSecurityHooks(app: FastifyInstance, c: Container): void {
  app.addHook('onRequest', async (request, reply) => {
    applyBaseHeaders(request, reply);
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

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './problem.ts';

// WebDAV's methods, routed so that they too get 405 on a known path rather than 404.
const WEBDAV = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'REPORT'];

/** A CORS preflight, as the Fetch standard sends one: OPTIONS with Origin and the method it asks for. */
function isPreflight(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

function refuseMethod(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  reply.header('Allow', allow);
  return sendProblem(request, reply, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}.`);
}

/**
 * Records the methods of every route so that a known path asked with another method answers
 * 405 with `Allow` instead of 404. Call before the CORS plugin and the routes are added; `close`,
 * once every plugin's routes are in, adds the 405 routes.
 */
export function trackRouteMethods(app: FastifyInstance): { close(): void } {
  for (const method of WEBDAV) app.addHttpMethod(method, { hasBody: true });
  const byUrl = new Map<string, Set<string>>();
  const allowByUrl = new Map<string, string>();
  app.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all OPTIONS route is not a path of ours.
    if (route.url === '*') return;
    const methods = byUrl.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    // Fastify answers HEAD for every GET route.
    if (methods.has('GET') && route.exposeHeadRoute !== false) methods.add('HEAD');
    byUrl.set(route.url, methods);
  });
  // The CORS plugin (strictPreflight off) answers any OPTIONS 204 as a preflight, in its own hook,
  // before any route. A plain OPTIONS on a known path is refused here first, as any other method is.
  app.addHook('onRequest', (request, reply, done) => {
    const allow = request.method === 'OPTIONS' ? allowByUrl.get(request.routeOptions.url ?? '') : undefined;
    if (allow === undefined || isPreflight(request)) return done();
    refuseMethod(request, reply, allow);
  });
  return {
    close() {
      const all = app.supportedMethods;
      for (const [url, methods] of byUrl) {
        // An OPTIONS route of ours only carries CORS settings for preflights: not a method to name.
        const allow = [...methods]
          .filter((m) => m !== 'OPTIONS')
          .sort()
          .join(', ');
        allowByUrl.set(url, allow);
        const missing = all.filter((m) => !methods.has(m));
        if (missing.length === 0) continue;
        app.route({
          method: missing,
          url,
          exposeHeadRoute: false,
          schema: { hide: true },
          config: { methodNotAllowed: true },
          // Refused before the body is read: a PUT or DELETE with a body is a 405, not the 400,
          // 413 or 415 the body parsers would answer for a body this path never reads.
          onRequest: async (request, reply) => refuseMethod(request, reply, allow),
          handler: (request, reply) => refuseMethod(request, reply, allow),
        });
      }
    },
  };
}

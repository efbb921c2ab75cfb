import type { FastifyInstance } from 'fastify';
import { sendProblem } from './problem.ts';

// WebDAV's methods, routed so that they too get 405 on a known path rather than 404.
const WEBDAV = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'REPORT'];

/**
 * Records the methods of every route so that a known path asked with another method answers
 * 405 with `Allow` instead of 404. Call before the routes are added; `close` adds the 405 routes.
 */
export function trackRouteMethods(app: FastifyInstance): { close(): void } {
  for (const method of WEBDAV) app.addHttpMethod(method, { hasBody: true });
  const byUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all OPTIONS route is not a path of ours.
    if (route.url === '*') return;
    const methods = byUrl.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    // Fastify answers HEAD for every GET route.
    if (methods.has('GET') && route.exposeHeadRoute !== false) methods.add('HEAD');
    byUrl.set(route.url, methods);
  });
  return {
    close() {
      // OPTIONS too: the CORS plugin answers preflights in its onRequest hook, before any route,
      // so what reaches a route is a plain OPTIONS (or CORS is off), which gets 405 like the rest.
      const all = app.supportedMethods;
      for (const [url, methods] of [...byUrl]) {
        const missing = all.filter((m) => !methods.has(m));
        if (missing.length === 0) continue;
        // An OPTIONS route of ours only carries CORS settings for preflights: not a method to name.
        const allow = [...methods]
          .filter((m) => m !== 'OPTIONS')
          .sort()
          .join(', ');
        app.route({
          method: missing,
          url,
          exposeHeadRoute: false,
          schema: { hide: true },
          config: { methodNotAllowed: true },
          handler: (request, reply) => {
            reply.header('Allow', allow);
            return sendProblem(
              request,
              reply,
              'method_not_allowed',
              `${request.method} is not allowed here; use ${allow}.`,
            );
          },
        });
      }
    },
  };
}

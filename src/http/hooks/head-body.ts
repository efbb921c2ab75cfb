import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers HEAD itself (its handler branches on the method). */
    answersHead?: boolean;
  }
}

/**
 * For the routes that answer HEAD themselves (screenshot, content; `config.answersHead`), what
 * Fastify's generated HEAD routes do for the rest: a body sent to HEAD (a refusal's problem+json)
 * leaves only its Content-Length, taken after compression, so HEAD's headers are GET's on every
 * route. No body, no length: a HEAD 200 there renders nothing and cannot tell it.
 */
async function dropHeadBody(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (request.method !== 'HEAD' || payload === undefined || payload === null) return payload;
  if (typeof (payload as NodeJS.ReadableStream).resume === 'function') {
    // A compressed stream: its length is not known before it has run.
    (payload as NodeJS.ReadableStream).on('error', () => {}).resume();
    return null;
  }
  reply.header('Content-Length', Buffer.byteLength(payload as string | Buffer));
  return null;
}

/**
 * Registered after compression, whose onSend it must follow on each route. Fastify's generated
 * HEAD routes get its own handler ahead of compression, which took the length before the body
 * was compressed: that handler is moved last, so their length and encoding are GET's too.
 */
export function registerHeadBodyDrop(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const hooks = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    if (route.config?.answersHead) route.onSend = [...hooks, dropHeadBody];
    else if (route.method === 'HEAD') {
      const fastifys = hooks.filter((hook) => hook.name === 'headRouteOnSendHandler');
      route.onSend = [...hooks.filter((hook) => !fastifys.includes(hook)), ...fastifys];
    }
  });
}

import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { DependencyDownError } from '../../errors.ts';
import { ProblemError } from '../problem.ts';
import { registerFormParser } from './form-body.ts';
import { messagePage } from './pages.ts';
import { registerAccountRoutes } from './routes.ts';

// Pages load only what this service serves: no third-party origin, no inline script or style.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const FONTS = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans/package.json')),
  'files',
);

/** The account pages under /account: one encapsulated plugin, so its parsers and hooks stay out of the API. */
export async function accountPages(app: FastifyInstance, opts: { c: Container }): Promise<void> {
  const { c } = opts;
  // Pages for people, not API operations: kept out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie);
  registerFormParser(app);
  await app.register(fastifyCsrf, {
    cookieKey: 'postshot_csrf',
    cookieOpts: { path: '/account', sameSite: 'strict', httpOnly: true, secure: 'auto' },
  });
  await app.register(fastifyStatic, {
    root: ASSETS,
    prefix: '/assets/',
    decorateReply: false,
    maxAge: 3600_000,
    index: false,
  });
  await app.register(fastifyStatic, {
    root: FONTS,
    prefix: '/assets/fonts/',
    decorateReply: false,
    maxAge: 30 * 86400_000,
    immutable: true,
    index: false,
    allowedPath: (p) => /^\/noto-sans-latin-(400|600)-normal\.woff2$/.test(p),
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Content-Security-Policy', CSP);
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    reply.header('Cache-Control', 'no-store');
  });

  app.setErrorHandler((err: FastifyError | DependencyDownError | ProblemError, request, reply) => {
    if (err instanceof DependencyDownError) {
      reply.header('Retry-After', '5');
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(messagePage({ title: 'Unavailable', message: 'The service is briefly unavailable; try again shortly.' }));
    }
    // The service's own refusals (the JSON body parser's, say) carry their status as a ProblemError.
    const status = err instanceof ProblemError ? err.status : ((err as FastifyError).statusCode ?? 500);
    const code = (err as FastifyError).code;
    if (code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET') {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          messagePage({
            title: 'Form expired',
            message:
              'This form was not sent from a page of this site, or it has expired. Nothing was changed. Reload the page and try again.',
            link: ['/account', 'Back to your account'],
          }),
        );
    }
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(
          messagePage({
            title: status === 413 ? 'Too large' : status === 415 ? 'Unsupported form' : 'Bad request',
            message: 'The form could not be read. Nothing was changed.',
            link: ['/account', 'Back to your account'],
          }),
        );
    }
    request.log.error({ err }, 'account page failed');
    return reply
      .code(500)
      .type('text/html; charset=utf-8')
      .send(messagePage({ title: 'Something went wrong', message: 'The page could not be shown; try again shortly.' }));
  });

  app.setNotFoundHandler((_request, reply) =>
    reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(messagePage({ title: 'Not found', message: 'There is no such page.', link: ['/account', 'Your account'] })),
  );

  registerAccountRoutes(app, c);
}

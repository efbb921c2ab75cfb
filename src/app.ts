import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Container } from './container.ts';
import { DependencyDownError } from './errors.ts';
import { RenderTimeoutError } from './render/pool.ts';
import { PROBLEMS, ProblemError, problemBody, sendProblem, type ProblemCode } from './http/problem.ts';
import { registerSecurityHooks } from './http/hooks/security.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRoutes } from './http/routes/index.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildOptions {
  /** Extra routes (tests only); registered after the product's routes. */
  plugins?: Array<(app: FastifyInstance) => void>;
  https?: { cert: Buffer; key: Buffer };
}

/** The Fastify app over a container. No listening here: main.ts and the tests decide that. */
export async function buildApp(c: Container, options: BuildOptions = {}): Promise<FastifyInstance> {
  const serverOptions: FastifyServerOptions & Record<string, unknown> = {
    loggerInstance: c.logger,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 64 * 1024,
    trustProxy: (c.config.trustProxy ?? false) as FastifyServerOptions['trustProxy'],
    connectionTimeout: 60_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    // Post URLs are accepted URL-encoded in the path; the default of 100 would turn them into 404s.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    clientErrorHandler: (err: { code?: string }, socket: import('node:net').Socket) => {
      // Malformed HTTP never reaches a route; still answer in problem+json rather than drop the line.
      if (!socket.writable) return;
      const [status, code]: [number, ProblemCode] =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large']
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout']
            : [400, 'bad_request'];
      const body = JSON.stringify(problemBody(code, 'The request could not be parsed as HTTP.', randomUUID(), status));
      socket.end(
        `HTTP/1.1 ${status} ${PROBLEMS[code].title}\r\nContent-Type: application/problem+json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
  if (options.https) {
    Object.assign(serverOptions, { http2: true, https: { ...options.https, allowHTTP1: true } });
  }
  const app = Fastify(serverOptions) as unknown as FastifyInstance;

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerSecurityHooks(app, c);

  app.setErrorHandler((err: FastifyError | ProblemError | DependencyDownError | RenderTimeoutError, request, reply) => {
    if (err instanceof ProblemError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return sendProblem(request, reply, err.code, err.detail, err.status);
    }
    if (err instanceof RenderTimeoutError) {
      request.log.error({ err }, 'render timed out');
      return sendProblem(
        request,
        reply,
        'render_timeout',
        'Rendering this post took too long; try again or use format=svg.',
      );
    }
    if (err instanceof DependencyDownError) {
      request.log.error({ err: err.cause ?? err }, 'dependency unavailable');
      reply.header('Retry-After', '5');
      return sendProblem(request, reply, 'service_unavailable', `${err.dependency} is unavailable; try again shortly.`);
    }
    const mapped = mapFrameworkError(err as FastifyError);
    if (mapped) return sendProblem(request, reply, mapped[0], mapped[1]);
    request.log.error({ err }, 'unhandled error');
    return sendProblem(request, reply, 'internal_error', 'An unexpected error occurred; it has been logged.');
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      'not_found',
      `No route for ${request.method} ${request.url.split('?')[0].slice(0, 200)}.`,
    ),
  );

  // JSON bodies must be valid UTF-8: a lenient decode would turn bad bytes into U+FFFD and carry on.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new ProblemError('invalid_body', 'The body is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  await registerOpenApi(app, c.config);
  registerRoutes(app, c);
  for (const plugin of options.plugins ?? []) plugin(app);
  await app.ready();
  return app;
}

function mapFrameworkError(err: FastifyError): [ProblemCode, string] | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ['payload_too_large', 'The request body is larger than 64 KiB.'];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ['unsupported_media_type', 'Send the body as application/json.'];
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ['invalid_body', 'The body is empty; send a JSON object.'];
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ['bad_request', 'Content-Length does not match the body.'];
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ['invalid_body', 'The body is not valid JSON.'];
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return ['invalid_body', 'The body is not valid JSON.'];
  }
  if (err.statusCode === 413) return ['payload_too_large', 'The request body is too large.'];
  if (err.statusCode === 415) return ['unsupported_media_type', 'Send the body as application/json.'];
  if (err.statusCode === 404) return ['not_found', 'Not found.'];
  if (err.statusCode === 405) return ['method_not_allowed', 'Method not allowed.'];
  return null;
}

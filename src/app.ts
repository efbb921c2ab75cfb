import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Container } from './container.ts';
import { ClientGoneError, DependencyDownError } from './errors.ts';
import { refuseForeignCharset } from './http/body-charset.ts';
import { foreignTransferCoding } from './http/transfer-coding.ts';
import { registerCompression } from './http/compression.ts';
import { registerCors } from './http/cors.ts';
import {
  answerClientError,
  answerFrameworkError,
  MAX_URL_LENGTH,
  answerConnect,
  answerExpectation,
  mapFrameworkError,
  URL_TOO_LONG,
} from './http/framework-errors.ts';
import { registerSecurityHooks } from './http/hooks/security.ts';
import { applyCallerQuota } from './http/metered.ts';
import { trackRouteMethods } from './http/method-not-allowed.ts';
import { ProblemError, sendProblem } from './http/problem.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRoutes } from './http/routes/index.ts';
import { RenderBusyError, RenderMemoryError, RenderTimeoutError } from './render/pool.ts';
import { registerHeadBodyDrop } from './http/hooks/head-body.ts';
import { closeHttp2SessionsOnClose } from './http/http2-sessions.ts';
import { registerHttp2BodyDeadline } from './http/hooks/body-deadline.ts';
import { registerHttp2HeaderLimit } from './http/hooks/http2-header-limit.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A request (headers and body) must be received whole within this long, over HTTP/1.1 and HTTP/2. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface BuildOptions {
  /** Extra routes (tests only); registered after the product's routes. */
  plugins?: Array<(app: FastifyInstance) => void>;
  https?: { cert: Buffer; key: Buffer };
}

/**
 * The 404 detail. `/` serves nothing, but it is where a newcomer starts: its 404 points at the
 * reference, the OpenAPI document and, while anyone may sign up, the account pages.
 */
function describeNoRoute(method: string, url: string, signup: 'open' | 'closed'): string {
  const path = url.split('?')[0];
  const noRoute = `No route for ${method} ${path.slice(0, 200)}.`;
  if (path !== '/') return noRoute;
  const account = signup === 'open' ? '; sign up or sign in at /account' : '';
  return `${noRoute} This is the postshot API (routes under /api/v1/): its reference is at /docs and its OpenAPI document at /openapi.json${account}.`;
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
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 72_000,
    return503OnClosing: false,
    // Post URLs are accepted URL-encoded in the path; the default of 100 would turn them into 404s.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Malformed HTTP never reaches a route; still answer in problem+json rather than drop the line.
    clientErrorHandler: answerClientError,
    // Node answers an HTTP/1.1 request without Host with a bare 400; the hook below answers it.
    http: { requireHostHeader: false },
    // Bad percent-encoding and over-long parameters are refused by the router, before any hook.
    frameworkErrors: answerFrameworkError,
  };
  if (options.https) {
    Object.assign(serverOptions, { http2: true, https: { ...options.https, allowHTTP1: true } });
  }
  const app = Fastify(serverOptions) as unknown as FastifyInstance;
  app.server.on('connect', answerConnect);
  app.server.on('checkExpectation', answerExpectation);
  registerSecurityHooks(app, c);
  if (options.https) {
    closeHttp2SessionsOnClose(app);
    // Node holds HTTP/1.1 to these limits itself, HTTP/2 not.
    registerHttp2HeaderLimit(app);
    registerHttp2BodyDeadline(app, REQUEST_TIMEOUT_MS);
  }
  // Fastify's own 503 while closing is not problem+json: this hook answers it instead.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    // A kept-alive connection whose request is still running would hold the close up for the whole
    // keep-alive timeout once answered; from now on it is closed as soon as it falls idle.
    app.server.keepAliveTimeout = 1;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      if (request.raw.httpVersionMajor < 2) reply.header('Connection', 'close');
      reply.header('Retry-After', '1');
      sendProblem(request, reply, 'service_unavailable', 'This instance is shutting down; retry the request.');
    } else if (request.url.length > MAX_URL_LENGTH) sendProblem(request, reply, 'uri_too_long', URL_TOO_LONG);
    else if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
      sendProblem(request, reply, 'bad_request', 'An HTTP/1.1 request needs a Host header.');
    else if (foreignTransferCoding(request.headers['transfer-encoding'])) {
      const coding = JSON.stringify(foreignTransferCoding(request.headers['transfer-encoding']));
      reply.header('Connection', 'close');
      sendProblem(
        request,
        reply,
        'bad_request',
        `Transfer-Encoding ${coding} is not supported; send the body with chunked alone, or with Content-Length.`,
      );
    } else done();
  });
  // Before CORS: a plain OPTIONS on a known path is a 405, not a preflight the CORS hook answers.
  const methods = trackRouteMethods(app);
  await registerCors(app, c);
  await registerCompression(app);
  registerHeadBodyDrop(app);

  app.setErrorHandler(
    async (
      err: FastifyError | ProblemError | DependencyDownError | RenderTimeoutError | RenderBusyError | ClientGoneError,
      request,
      reply,
    ) => {
      await applyCallerQuota(c, request, reply).catch((e) => request.log.warn({ err: e }, 'quota headers unavailable'));
      if (err instanceof ProblemError) {
        for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
        return sendProblem(request, reply, err.code, err.detail, err.status);
      }
      // No one is there to read an answer; the status is for the access log (nginx's 499).
      if (err instanceof ClientGoneError) {
        request.log.info('the client closed its connection before its answer: not charged');
        return reply.code(499).send();
      }
      if (err instanceof RenderTimeoutError) {
        const memory = err instanceof RenderMemoryError;
        request.log.error({ err }, memory ? 'render stopped for its memory' : 'render timed out');
        // SVG is drawn without a raster: worth suggesting, unless that is what was asked for.
        const svg = (request.query as { format?: unknown } | undefined)?.format === 'svg' ? '' : ', or format=svg';
        return sendProblem(
          request,
          reply,
          'render_timeout',
          memory
            ? `Rendering this post needed more memory than one render may use; try a smaller width, height or scale${svg}.`
            : `Rendering this post took too long; try again, or ask for less (showFullText=false, a smaller scale${svg}).`,
        );
      }
      if (err instanceof RenderBusyError) {
        request.log.warn({ err }, 'every render process busy');
        reply.header('Retry-After', '5');
        return sendProblem(
          request,
          reply,
          'service_unavailable',
          'Every render process is busy with other screenshots; try again shortly.',
        );
      }
      if (err instanceof DependencyDownError) {
        request.log.error({ err: err.cause ?? err }, 'dependency unavailable');
        reply.header('Retry-After', '5');
        return sendProblem(
          request,
          reply,
          'service_unavailable',
          `${err.dependency} is unavailable; try again shortly.`,
        );
      }
      const mapped = mapFrameworkError(err as FastifyError);
      if (mapped) return sendProblem(request, reply, mapped[0], mapped[1]);
      request.log.error({ err }, 'unhandled error');
      return sendProblem(request, reply, 'internal_error', 'An unexpected error occurred; it has been logged.');
    },
  );

  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 'not_found', describeNoRoute(request.method, request.url, c.config.signup)),
  );

  const PROTOTYPE_KEY = /"(?:__proto__|constructor)"\s*:/;
  const isJson = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };
  // JSON bodies must be valid UTF-8: a lenient decode would turn bad bytes into U+FFFD and carry on.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // Request bodies are read as sent: a compressed one would be refused as "not UTF-8" or, with
    // a coding that happens to be plain text, read as if it had none (RFC 9110 §8.4.1: 415).
    const coding = String(request.headers['content-encoding'] ?? 'identity').trim();
    if (coding.toLowerCase() !== 'identity') {
      done(
        new ProblemError(
          'unsupported_media_type',
          `Content-Encoding ${JSON.stringify(coding.slice(0, 40))} is not supported on requests; send the body uncompressed.`,
          415,
          { 'Accept-Encoding': 'identity' },
        ),
        undefined,
      );
      return;
    }
    const charsetRefusal = refuseForeignCharset(request.headers['content-type']);
    if (charsetRefusal) {
      done(charsetRefusal, undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new ProblemError('invalid_body', 'The body is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      // The parser refuses keys that would reach Object.prototype: valid JSON, refused all the same.
      if (err && PROTOTYPE_KEY.test(text) && isJson(text)) {
        done(
          new ProblemError('invalid_body', 'The body holds a "__proto__" or "constructor" key; leave such keys out.'),
        );
      } else done(err, value);
    });
  });

  await registerOpenApi(app, c.config);
  registerRoutes(app, c);
  for (const plugin of options.plugins ?? []) plugin(app);
  // Plugins (the account pages) add their routes when loaded: 405 routes only once all are known.
  await app.after();
  methods.close();
  await app.ready();
  return app;
}

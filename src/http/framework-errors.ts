// Answers for requests the routes never see: malformed HTTP, bad percent-encoding, body
// parser refusals. Each is problem+json with X-Request-Id and the security headers.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { applyBaseHeaders, SECURITY_HEADERS } from './hooks/security.ts';
import { PROBLEMS, problemBody, sendProblem, type ProblemCode } from './problem.ts';

/** Longest request target served; longer ones are 414 (Node's parser caps all headers at 16 KiB). */
export const MAX_URL_LENGTH = 8192;

export const URL_TOO_LONG = `The URL is longer than ${MAX_URL_LENGTH} characters; send a post id or a shorter post URL.`;

/** Errors Fastify raises before routing (router-level): bad percent-encoding, over-long parameters. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  applyBaseHeaders(request, reply);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendProblem(request, reply, 'uri_too_long', URL_TOO_LONG);
    return;
  }
  sendProblem(
    request,
    reply,
    'bad_request',
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL path has malformed percent-encoding (every % must start a valid UTF-8 escape such as %2F).'
      : 'The request could not be routed.',
  );
}

/** The request line alone overflowed the header limit when the first line never ends in the packet. */
function isRequestLineOverflow(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const head = rawPacket.subarray(0, 16).toString('latin1');
  if (!/^[A-Z]{3,10} /.test(head)) return false;
  const eol = rawPacket.indexOf('\r\n');
  return eol === -1 || eol > MAX_URL_LENGTH;
}

/** Node's own parser refused the bytes: answer on the socket, since no request object exists. */
export function answerClientError(err: { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) return;
  const [status, code, detail]: [number, ProblemCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? isRequestLineOverflow(err.rawPacket)
        ? [414, 'uri_too_long', URL_TOO_LONG]
        : [431, 'headers_too_large', 'The request headers are larger than 16 KiB.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time.']
        : [400, 'bad_request', 'The request could not be parsed as HTTP.'];
  endWithProblem(socket, status, code, detail);
}

/** The headers and body of a problem answered outside Fastify, the connection to be closed. */
function buildProblem(
  status: number,
  code: ProblemCode,
  detail: string,
  extra: Record<string, string>,
): { headers: Record<string, string>; body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(code, detail, requestId, status));
  const headers = {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...SECURITY_HEADERS,
    ...extra,
    Connection: 'close',
  };
  return { headers, body };
}

/** A problem written straight to a socket that no request object owns, and the socket closed. */
function endWithProblem(
  socket: Socket,
  status: number,
  code: ProblemCode,
  detail: string,
  extra: Record<string, string> = {},
): void {
  const { headers, body } = buildProblem(status, code, detail, extra);
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${PROBLEMS[code].title}\r\n${head}\r\n${body}`);
}

/** CONNECT (a proxy tunnel) never reaches Fastify: Node hands it to the server's 'connect' event. */
export function answerConnect(_request: unknown, socket: Socket): void {
  if (!socket.writable) return;
  endWithProblem(socket, 405, 'method_not_allowed', 'CONNECT is not served here; this is no proxy.', {
    // What the service's paths answer between them; each path's own 405 names its methods.
    Allow: 'DELETE, GET, HEAD, OPTIONS, POST',
  });
}

/**
 * An Expect other than 100-continue never reaches Fastify: Node answers 417 itself, bare (no body,
 * no X-Request-Id), unless the server's 'checkExpectation' listener answers it, as this does.
 */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const expect = String(request.headers.expect ?? '').slice(0, 64);
  const { headers, body } = buildProblem(
    417,
    'expectation_failed',
    `Expect: ${expect} is not supported; only 100-continue is.`,
    {},
  );
  // HTTP/2 forbids connection headers.
  if (request.httpVersionMajor >= 2) delete headers.Connection;
  response.writeHead(417, PROBLEMS.expectation_failed.title, headers).end(body);
}

/** Body-parser and other framework errors raised inside a request, as catalog problems. */
export function mapFrameworkError(err: FastifyError): [ProblemCode, string] | null {
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

import type { FastifyReply, FastifyRequest } from 'fastify';

/** The one catalog of error codes: every non-2xx answer uses one of these. */
export const PROBLEMS = {
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  invalid_post_id: { status: 400, title: 'Invalid post id' },
  too_many_ids: { status: 400, title: 'Too many ids' },
  invalid_body: { status: 400, title: 'Invalid request body' },
  bad_request: { status: 400, title: 'Bad request' },
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  unknown_api_key: { status: 403, title: 'Unknown API key' },
  quota_exceeded: { status: 403, title: 'Quota exceeded' },
  plan_restricted: { status: 403, title: 'Not available on this plan' },
  https_required: { status: 403, title: 'HTTPS required' },
  not_found: { status: 404, title: 'Not found' },
  post_not_found: { status: 404, title: 'Post not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  request_timeout: { status: 408, title: 'Request timeout' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  internal_error: { status: 500, title: 'Internal error' },
  upstream_unavailable: { status: 502, title: 'Upstream unavailable' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  upstream_timeout: { status: 504, title: 'Upstream timeout' },
  render_timeout: { status: 504, title: 'Render timeout' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The same text as detail: TwitterShots' clients show `message`. */
  message: string;
  code: ProblemCode;
  requestId: string;
  [extra: string]: unknown;
}

/** Thrown inside request handling when a request must end with a known problem. */
export class ProblemError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    /** Status override for codes whose status depends on the endpoint (the auth matrix). */
    readonly status: number = PROBLEMS[code].status,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** Anything shaped like an API key is masked, even when the caller pasted it where an id goes. */
export function maskKeys(text: string): string {
  return text.replace(/psk_[0-9A-Za-z]{4,}/g, 'psk_[redacted]');
}

export function problemBody(code: ProblemCode, detail: string, requestId: string, status?: number): ProblemBody {
  return {
    type: `urn:postshot:problem:${code}`,
    title: PROBLEMS[code].title,
    status: status ?? PROBLEMS[code].status,
    detail: maskKeys(detail),
    message: maskKeys(detail),
    code,
    requestId,
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  status?: number,
): FastifyReply {
  const body = problemBody(code, detail, request.id, status);
  // A refusal is about this moment (quota, rate, upstream): never reused from a cache.
  return reply.code(body.status).header('Cache-Control', 'no-store').type('application/problem+json').send(body);
}

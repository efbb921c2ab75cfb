// Building blocks of the route schemas: the problem body, the headers every metered answer carries,
// and the security schemes. The OpenAPI document is generated from these (src/http/openapi.ts).
import Type, { type TSchema } from 'typebox';
import { PROBLEMS, type ProblemCode } from '../problem.ts';

/** The version number of the interface this service implements, not the package version. */
export const API_VERSION = '0.9.1';

/** A string that is one of `values`, documented as a plain JSON Schema `enum` (what client generators read best). */
export function stringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** The RFC 9457 body of every non-2xx answer; `codes` narrows `code` to what the status can carry. */
export function problemSchema(codes: readonly ProblemCode[]) {
  return Type.Object(
    {
      type: Type.String({ description: 'URN naming the problem: `urn:postshot:problem:<code>`.' }),
      title: Type.String({ description: 'Short, fixed summary of the problem type.' }),
      status: Type.Integer({ description: 'The HTTP status code of this answer.' }),
      detail: Type.String({ description: 'What went wrong with this request and how to fix it.' }),
      message: Type.Optional(Type.String({ description: 'The same text as `detail`.' })),
      code: stringEnum(codes, { description: 'Stable machine-readable code; one catalog for the whole API.' }),
      requestId: Type.String({ description: 'Echo of the `X-Request-Id` response header.' }),
    },
    { description: 'RFC 9457 problem details.' },
  );
}

// @fastify/swagger reads a response header as its JSON Schema, description included.
const header = (description: string, schema: TSchema = Type.Integer({ minimum: 0 })) => ({ ...schema, description });

export const REQUEST_ID_HEADER = {
  'X-Request-Id': header('Identifier of this request (echoed when sent).', Type.String()),
};

/** After this request's charge; on every screenshot and content answer once the key is known. */
export const QUOTA_HEADERS = {
  'X-Quota-Remaining': header('Credits left in the current period, after this request.'),
  'X-Quota-Limit': header('Credits of the current period.'),
};

/** Per-key request rate limit (requests per minute by plan); on every authenticated answer. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per minute for this key.'),
  'RateLimit-Remaining': header('Requests left in the current minute.'),
  'RateLimit-Reset': header('Seconds until the current window resets.'),
};

export const RETRY_AFTER_HEADER = { 'Retry-After': header('Seconds to wait before retrying.') };

export type HeaderSet = Record<string, TSchema>;

/**
 * Error responses of a route, one per status, each listing its `code` values. `extra` adds headers
 * per status (429 carries Retry-After; metered routes carry quota headers on refusals too).
 */
export function problemResponses(codesByStatus: Record<number, readonly ProblemCode[]>, headers: HeaderSet = {}) {
  const out: Record<number, unknown> = {};
  for (const [status, codes] of Object.entries(codesByStatus)) {
    const list = codes.map((code) => `\`${code}\` (${PROBLEMS[code].title})`).join(', ');
    out[Number(status)] = {
      description: `Problem: ${list}.`,
      headers: {
        ...REQUEST_ID_HEADER,
        ...headers,
        ...(Number(status) === 429 || Number(status) === 503 ? RETRY_AFTER_HEADER : {}),
      },
      content: { 'application/problem+json': { schema: problemSchema(codes) } },
    };
  }
  return out;
}

/** Answers any route can give whatever its input: a bug, or a dependency down. */
export const SERVER_PROBLEMS = {
  500: ['internal_error'],
  503: ['service_unavailable'],
} as const satisfies Record<number, readonly ProblemCode[]>;

export const API_KEY_SECURITY = [{ apiKey: [] }];

/** Where a key comes from: the /account pages take sign-ups only when POSTSHOT_SIGNUP is open. */
function describeKeySource(signup: 'open' | 'closed'): string {
  const operator = '`postshot accounts create` or `postshot keys create`';
  if (signup === 'open')
    return `Your postshot API key (\`psk_…\`): sign up at \`/account\` and create one on its API keys page, or ask the operator (${operator}).`;
  return `Your postshot API key (\`psk_…\`), from the operator (${operator}); account holders can also create keys at \`/account/keys\`.`;
}

export function securitySchemes(signup: 'open' | 'closed') {
  return {
    apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: describeKeySource(signup) },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'The same API key as a bearer token (accepted by `/mcp` only).',
    },
  } as const;
}

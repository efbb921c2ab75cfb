// POST /mcp: the MCP Streamable HTTP endpoint, stateless (a server and transport per request, JSON
// answers, no sessions), so any instance of a fleet can answer any call.
// Threat model: the body is hostile JSON-RPC; the SDK validates it, the tools validate their
// arguments, and every tool call goes through the REST routes' own auth, rate limit and quota.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import inject from 'light-my-request';
import type { Container } from '../../container.ts';
import type { RestCaller } from '../../mcp/rest.ts';
import { watchHangUp } from '../hang-up.ts';
import { mcpSchema } from '../schemas/mcp.ts';
import { assertSchemaValid, documented } from '../schemas/validation.ts';

// The REST answer's quota and rate-limit state is copied onto the MCP answer.
const PASSED_BACK = ['x-quota-remaining', 'x-quota-limit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** The key as X-API-KEY, or as `Authorization: Bearer <key>` for clients that only set that. */
function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return bearer?.[1];
}

/**
 * One REST request made in-process as the MCP caller: same key, same client address and proxy
 * headers, same TLS state, so the REST routes treat it as they would the caller's own request.
 */
function restCallerFor(
  app: FastifyInstance,
  request: FastifyRequest,
  passBack: Map<string, string>,
  callerGone: AbortSignal,
): RestCaller {
  const key = apiKeyOf(request);
  const encrypted = Boolean((request.raw.socket as { encrypted?: boolean } | undefined)?.encrypted);
  const dispatch = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    if (encrypted) Object.defineProperty(req.socket, 'encrypted', { value: true });
    // The MCP client hung up: so does the REST request, which is then not charged for its answer.
    if (callerGone.aborted) res.destroy();
    else callerGone.addEventListener('abort', () => res.destroy(), { once: true });
    app.routing(req, res);
  };
  const headers: Record<string, string> = { accept: '*/*', 'x-request-id': request.id };
  if (key !== undefined) headers['x-api-key'] = key;
  for (const name of ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'user-agent']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return async ({ method, url, body }) => {
    const res = await inject(dispatch, {
      method,
      url,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload: body === undefined ? undefined : JSON.stringify(body),
      remoteAddress: request.raw.socket?.remoteAddress ?? request.ip,
    });
    const out: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(res.headers))
      out[name] = Array.isArray(value) ? value.join(', ') : value?.toString();
    for (const name of PASSED_BACK) if (out[name] !== undefined) passBack.set(name, out[name]);
    return { status: res.statusCode, headers: out, body: res.rawPayload };
  };
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith(':') || NOT_FORWARDED.has(name) || value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}

// The MCP SDK (and its JSON Schema validator) is loaded by the first call: a service whose
// clients never use MCP does not hold it in memory.
let sdk: Promise<
  [typeof import('../../mcp/server.ts'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]
> | null = null;
const loadSdk = () => {
  sdk ??= Promise.all([
    import('../../mcp/server.ts'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
  return sdk;
};

export function registerMcpRoutes(app: FastifyInstance, _c: Container): void {
  app.post('/mcp', documented(mcpSchema), async (request, reply) => {
    assertSchemaValid(request);
    const [{ createMcpServer, refuseInvalidParams }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
    const refused = refuseInvalidParams(request.body);
    if (refused) return reply.header('Cache-Control', 'no-store').type('application/json').send(refused);
    const passBack = new Map<string, string>();
    const callerGone = watchHangUp(reply);
    const server = createMcpServer(restCallerFor(app, request, passBack, callerGone.signal));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      for (const [name, value] of passBack) reply.header(name, value);
      reply.header('Cache-Control', 'no-store');
      const body = Buffer.from(await response.arrayBuffer());
      return reply.send(body.length > 0 ? body : undefined);
    } finally {
      callerGone.stop();
      await server.close();
    }
  });
  // GET (no server-initiated stream) and DELETE (no session) get the app-wide 405 with `Allow: POST`.
}

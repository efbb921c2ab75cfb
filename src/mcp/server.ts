// The MCP server: lists the tools and runs each call as one REST request (rest.ts). A REST refusal
// becomes a tool error (isError) carrying the problem's code and message, so an agent can act on it.
// The low-level Server takes JSON Schemas as they are: our TypeBox schemas need no conversion.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCErrorResponse,
  ListToolsRequestSchema,
  PingRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { API_VERSION } from '../http/schemas/common.ts';
import type { RestCaller, RestResponse } from './rest.ts';
import { TOOLS, type ToolDefinition } from './tools.ts';

const INSTRUCTIONS =
  'postshot reads public X (Twitter) posts. Use get_post_markdown to read one post, get_posts_markdown for ' +
  'several, screenshot_post for an image of a post, get_usage to see the credits left. A post is given by ' +
  'its numeric id or its URL. Errors carry a stable code such as post_not_found or quota_exceeded.';

// Only the argument names and the presence and type of the post ids are checked here: everything
// else (id syntax, how many, the options' values) is the REST route's to refuse, with its own codes
// and messages.
// The SDK builds an Ajv instance per server unless given one: a server per request would pay for it each time.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

const checkers = new Map(
  TOOLS.map((t) => {
    const ids: Record<string, TSchema> = {};
    if ('tweetId' in t.inputSchema.properties) ids.tweetId = Type.String();
    if ('tweetIds' in t.inputSchema.properties) ids.tweetIds = Type.Array(Type.String());
    return [t.name, Compile(Type.Object(ids))];
  }),
);

function describe(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as unknown as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as unknown as Tool['outputSchema'] } : {}),
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: tool.name === 'get_usage' },
  };
}

/** A tool error in the shape of a REST problem (code, status, detail), text first for the model. */
function toolError(problem: { code: string; status: number; detail: string; [k: string]: unknown }): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${problem.code} (HTTP ${problem.status}): ${problem.detail}` }],
    _meta: { 'postshot/problem': problem },
  };
}

/** The quota after this call, as the REST answer's headers gave it. */
function quotaOf(res: RestResponse): Record<string, unknown> {
  const remaining = res.headers['x-quota-remaining'];
  const limit = res.headers['x-quota-limit'];
  return remaining !== undefined && limit !== undefined
    ? { 'postshot/quota': { remaining: Number(remaining), limit: Number(limit) } }
    : {};
}

// The REST routes name the one header they read; /mcp also takes the key as a bearer token.
const MISSING_KEY_ON_MCP = 'Send your API key in the X-API-KEY header, or as `Authorization: Bearer <key>`.';

/** Turns a REST answer into MCP content: JSON as structured content, images as image content, text as text. */
export function toToolResult(res: RestResponse): CallToolResult {
  const type = (res.headers['content-type'] ?? '').split(';')[0].trim();
  const meta = quotaOf(res);
  if (res.status >= 400) {
    const problem =
      type === 'application/problem+json'
        ? JSON.parse(res.body.toString('utf8'))
        : { code: 'internal_error', status: res.status, detail: 'The service gave an unexpected answer.' };
    // `message` repeats `detail` (TwitterShots' clients show `message`): both say it, or neither.
    if (problem.code === 'missing_api_key') problem.detail = problem.message = MISSING_KEY_ON_MCP;
    const failed = toolError(problem);
    return { ...failed, _meta: { ...meta, ...failed._meta } };
  }
  if (type === 'application/json') {
    const json = JSON.parse(res.body.toString('utf8'));
    return { content: [{ type: 'text', text: JSON.stringify(json) }], structuredContent: json, _meta: meta };
  }
  if (type.startsWith('image/') && type !== 'image/svg+xml') {
    return { content: [{ type: 'image', data: res.body.toString('base64'), mimeType: type }], _meta: meta };
  }
  return { content: [{ type: 'text', text: res.body.toString('utf8') }], _meta: meta };
}

// The SDK checks a request's params inside its handler wrapper and answers a mismatch with -32603
// Internal error and the validator's dump: the caller's mistake reported as the server's fault. The
// requests this server handles are checked first, against the SDK's own schemas, as -32602.
interface ParamsCheck {
  safeParse(message: unknown): { success: true } | { success: false; error: { issues: ParamsIssue[] } };
}
interface ParamsIssue {
  path: PropertyKey[];
  message: string;
}
const REQUEST_SCHEMAS = new Map<string, ParamsCheck>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/**
 * The JSON-RPC error answering a request whose params do not fit its method, or null: they fit,
 * or the message is no request this server handles (the SDK answers those).
 */
export function refuseInvalidParams(message: unknown): JSONRPCErrorResponse | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return null;
  const parsed = REQUEST_SCHEMAS.get(method)?.safeParse(message);
  if (!parsed || parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `"${issue.path.map(String).join('.')}": ` : '';
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${where}${issue?.message ?? 'do not fit'}` },
  };
}

/** One MCP server over one caller's REST access. Stateless: built per HTTP request. */
export function createMcpServer(call: RestCaller): Server {
  const server = new Server(
    { name: 'postshot', title: 'postshot', version: API_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map(describe) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) {
      return toolError({ code: 'not_found', status: 404, detail: `No tool named "${request.params.name}".` });
    }
    const args = request.params.arguments ?? {};
    // Named as the tool's input schema names them: the REST route would call it a query parameter.
    const known = Object.keys(tool.inputSchema.properties);
    const unknown = Object.keys(args).find((name) => !known.includes(name));
    if (unknown !== undefined) {
      const takes = known.length ? `it takes ${known.join(', ')}` : 'it takes none';
      return toolError({
        code: 'invalid_parameter',
        status: 400,
        detail: `Unknown argument ${JSON.stringify(unknown.slice(0, 100))} for ${tool.name}; ${takes}.`,
      });
    }
    const check = checkers.get(tool.name)!;
    if (!check.Check(args)) {
      const issue = [...check.Errors(args)][0];
      const where = issue?.instancePath ? `"${issue.instancePath.slice(1).replaceAll('/', '.')}" ` : '';
      return toolError({
        code: 'invalid_parameter',
        status: 400,
        detail: `Invalid arguments for ${tool.name}: ${where}${issue?.message ?? 'do not match the input schema'}.`,
      });
    }
    return toToolResult(await call(tool.toRequest(args)));
  });
  return server;
}

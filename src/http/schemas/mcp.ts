import Type from 'typebox';
import {
  problemResponses,
  problemSchema,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  QUOTA_HEADERS,
  SERVER_PROBLEMS,
} from './common.ts';

const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    method: Type.Optional(Type.String({ examples: ['initialize', 'tools/list', 'tools/call'] })),
    params: Type.Optional(Type.Object({})),
  },
  { description: 'One JSON-RPC 2.0 message of the Model Context Protocol.' },
);

const JsonRpcError = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
  id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
});

export const mcpSchema = {
  operationId: 'postMcp',
  tags: ['Agents'],
  summary: 'MCP (Streamable HTTP)',
  description:
    'Model Context Protocol endpoint for agents, stateless: connect an MCP client to this URL. Tools: ' +
    '`get_post_markdown`, `get_posts_markdown`, `screenshot_post`, `get_usage`. Listing tools is free and ' +
    "needs no key; each tool call is one REST request made with the caller's key (X-API-KEY, or " +
    '`Authorization: Bearer <key>`), metered and rate limited like it. Refusals are tool results with ' +
    '`isError: true` whose text starts with the problem `code`.',
  security: [{ apiKey: [] }, { bearer: [] }, {}] as Array<Record<string, string[]>>,
  body: JsonRpcMessage,
  response: {
    200: {
      description:
        'The JSON-RPC answer. After a tool call: the quota and rate-limit headers of the REST request it made.',
      headers: { ...REQUEST_ID_HEADER, ...QUOTA_HEADERS, ...RATE_LIMIT_HEADERS },
      content: { 'application/json': { schema: Type.Object({ jsonrpc: Type.Literal('2.0') }) } },
    },
    202: { description: 'A notification or response was accepted.' },
    ...problemResponses({ 413: ['payload_too_large'], 415: ['unsupported_media_type'], ...SERVER_PROBLEMS }),
    400: {
      description: 'Not a JSON-RPC message: problem `invalid_body`, or a JSON-RPC error from the MCP transport.',
      content: {
        'application/problem+json': { schema: problemSchema(['invalid_body']) },
        'application/json': { schema: JsonRpcError },
      },
    },
    406: {
      description: 'The Accept header must list both application/json and text/event-stream (MCP transport).',
      content: { 'application/json': { schema: JsonRpcError } },
    },
  },
};

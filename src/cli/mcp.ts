// `postshot mcp --url U --api-key K`: a stdio MCP server for agent clients that only speak stdio.
// It forwards every message, unchanged, to the running service's /mcp endpoint with the key, so
// tools, metering and errors are the service's own. stdout carries only MCP messages.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CliError, type CliIo } from './index.ts';

/** JSON-RPC "server error" range: the service could not be reached or answered badly. */
const UNREACHABLE = -32000;

export function mcpEndpoint(url: string | undefined): URL {
  if (!url) throw new CliError('mcp needs --url, the address of a running postshot service');
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new CliError(`--url is not a URL: "${url}"`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new CliError('--url must be http:// or https://');
  // Accept both the service root and its /mcp address. The path is extended, not the whole
  // text: `/mcp` after a ?query or #fragment would post to the root.
  const path = base.pathname.replace(/\/+$/, '');
  const endpoint = new URL(base);
  endpoint.pathname = path.endsWith('/mcp') ? path : `${path}/mcp`;
  endpoint.hash = '';
  return endpoint;
}

/** An error's message with its cause: fetch says only "fetch failed", the reason (ECONNREFUSED) is the cause. */
function describeError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
}

/** Runs until stdin closes; resolves with the exit code. */
export async function runMcpForwarder(
  flags: { url?: string; 'api-key'?: string },
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const endpoint = mcpEndpoint(flags.url);
  const key = flags['api-key'] ?? env.POSTSHOT_API_KEY;
  if (!key) throw new CliError('mcp needs --api-key (or POSTSHOT_API_KEY)');
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'X-API-KEY': key } } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
  });

  // The client transport reports a failed send to onerror (below) before it rejects: the reason is
  // on stderr once, from there; the client is told here.
  const failed = (message: JSONRPCMessage) => {
    if (!isJSONRPCRequest(message)) return;
    void local.send({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: UNREACHABLE, message: `The postshot service at ${endpoint.origin} could not be reached.` },
    });
  };
  // Requests still being answered when stdin closes are answered before the forwarder stops: a
  // client may write its requests and close stdin at once (`echo … | postshot mcp`).
  const pending = new Set<Promise<void>>();
  local.onmessage = (message) => {
    const sent = upstream.send(message).catch(() => failed(message));
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
  };
  upstream.onmessage = (message) => {
    // Later requests carry the negotiated version, as the SDK's own client does.
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') upstream.setProtocolVersion(version);
    void local.send(message);
  };
  // Closing aborts what the client transport still has in flight, such as its probe for a GET
  // event stream after `notifications/initialized`: that is the forwarder stopping, not an error.
  let closing = false;
  upstream.onerror = (err) => {
    if (closing && (err as Error).name === 'AbortError') return;
    io.err(`postshot mcp: ${endpoint.origin}: ${describeError(err)}`);
  };
  await upstream.start();
  await local.start();
  process.stdin.once('end', () => void local.close());
  await closed;
  while (pending.size > 0) await Promise.allSettled([...pending]);
  closing = true;
  await upstream.close();
  return 0;
}

// The MCP tools: each one is a REST operation, its input schema an agent can act on, and how the
// REST answer becomes MCP content. Input schemas come from the same TypeBox schemas the routes use.
import Type, { type TObject, type TSchema } from 'typebox';
import { BulkResponse, MARKDOWN_FLAGS, MAX_BULK_IDS } from '../http/schemas/content.ts';
import { ScreenshotQuery } from '../http/schemas/screenshot.ts';
import { UsageResponse } from '../http/schemas/usage.ts';
import type { RestRequest } from './rest.ts';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: TObject;
  outputSchema?: TSchema;
  /** The REST request for validated arguments. */
  toRequest(args: Record<string, unknown>): RestRequest;
}

const TWEET_ID = Type.String({
  minLength: 1,
  description: 'The post: numeric id (e.g. "20") or its URL (e.g. "https://x.com/jack/status/20").',
});

/**
 * The post id as one URL-encoded path segment. A lone surrogate has no UTF-8 form (encodeURIComponent
 * throws on it): it goes as U+FFFD, as URLSearchParams sends one, so REST refuses it as invalid_post_id.
 */
function pathSegment(value: unknown): string {
  return encodeURIComponent(String(value).replace(/\p{Surrogate}/gu, '\uFFFD'));
}

/** `?a=1&b=x` from the arguments that are query parameters (all but `skip`); absent ones keep their default. */
function queryOf(args: Record<string, unknown>, skip: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (name !== skip && value !== undefined && value !== null) query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'get_post_markdown',
    title: 'Get a post as Markdown',
    description:
      'Returns a public X (Twitter) post as Markdown: author, date, text with links, media links, quoted post ' +
      'and counts. Use it to read or quote a post. Costs 1 credit; failures cost nothing.',
    inputSchema: Type.Object({ tweetId: TWEET_ID, ...MARKDOWN_FLAGS }, { additionalProperties: false }),
    toRequest: (args) => ({
      method: 'GET',
      url: `/api/v1/content/${pathSegment(args.tweetId)}${queryOf(args, 'tweetId')}`,
    }),
  },
  {
    name: 'get_posts_markdown',
    title: 'Get many posts as Markdown',
    description:
      `Returns up to ${MAX_BULK_IDS} public X posts as Markdown in one call, one result per id in order; ` +
      'a post that cannot be fetched has success=false and an error code. ' +
      'Costs 1 credit per distinct post delivered.',
    inputSchema: Type.Object(
      {
        tweetIds: Type.Array(TWEET_ID, { minItems: 1, maxItems: MAX_BULK_IDS, description: 'The posts.' }),
        ...MARKDOWN_FLAGS,
      },
      { additionalProperties: false },
    ),
    outputSchema: BulkResponse,
    toRequest: (args) => ({
      method: 'POST',
      url: `/api/v1/content/tweets${queryOf(args, 'tweetIds')}`,
      body: { tweetIds: args.tweetIds },
    }),
  },
  {
    name: 'screenshot_post',
    title: 'Screenshot a post',
    description:
      "Renders a public X post as an image card like X's own embed. png, jpeg and webp return the image; svg and html " +
      'return the markup as text; returnType="url" stores the image and returns its address (paid plans). ' +
      'Costs 1 credit; failures cost nothing.',
    inputSchema: Type.Object({ tweetId: TWEET_ID, ...ScreenshotQuery.properties }, { additionalProperties: false }),
    toRequest: (args) => ({
      method: 'GET',
      url: `/api/v1/screenshot/${pathSegment(args.tweetId)}${queryOf(args, 'tweetId')}`,
    }),
  },
  {
    name: 'get_usage',
    title: 'Get remaining credits',
    description: 'Returns the credits left and the quota of the current period for this API key. Free.',
    inputSchema: Type.Object({}, { additionalProperties: false }),
    outputSchema: UsageResponse,
    // Stray arguments go along so that REST refuses them, as it does for the other tools.
    toRequest: (args) => ({ method: 'GET', url: `/api/v1/usage${queryOf(args, '')}` }),
  },
];

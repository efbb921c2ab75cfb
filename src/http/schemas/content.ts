// The content endpoints: one post as Markdown, and many posts as JSON.
import Type from 'typebox';
import {
  API_KEY_SECURITY,
  problemResponses,
  QUOTA_HEADERS,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  SERVER_PROBLEMS,
  stringEnum,
} from './common.ts';
import { TWEET_ID_PARAMS } from './post-id.ts';
import { readByRoute } from './validation.ts';

export const MARKDOWN_OPTIONS = {
  includeStats: 'Include the reply, retweet, like and view counts.',
  includeMedia: 'Include image and video URLs.',
  includeQuoted: 'Include the quoted post, if any.',
} as const;
export const MARKDOWN_OPTION_NAMES = Object.keys(MARKDOWN_OPTIONS) as Array<keyof typeof MARKDOWN_OPTIONS>;
export const MAX_BULK_IDS = 100;

/** The Markdown options as properties of a query or of an MCP tool's arguments. */
export const MARKDOWN_FLAGS = Object.fromEntries(
  MARKDOWN_OPTION_NAMES.map((name) => [
    name,
    Type.Optional(Type.Boolean({ default: true, description: MARKDOWN_OPTIONS[name] })),
  ]),
);

/**
 * Read by the route (routes/content.ts): booleans are spelled as the screenshot options' are
 * (util/boolean-word.ts), which a JSON Schema boolean does not take.
 */
export const MarkdownQuery = readByRoute(Type.Object(MARKDOWN_FLAGS, { additionalProperties: false }));

export const BulkRequest = Type.Object(
  {
    tweetIds: Type.Array(Type.String({ description: 'Numeric post id or post URL.' }), {
      minItems: 1,
      maxItems: MAX_BULK_IDS,
      description: `Post ids, at most ${MAX_BULK_IDS}. Duplicates are fetched and charged once.`,
    }),
  },
  {
    additionalProperties: false,
    description: 'The options (includeStats, includeMedia, includeQuoted) are query parameters.',
  },
);

const BulkSuccess = Type.Object({
  tweetId: Type.String({ description: 'The id as requested.' }),
  markdown: Type.String({ description: 'Markdown of the post, same layout as the single content result.' }),
  success: Type.Literal(true),
});

const BulkFailure = Type.Object({
  tweetId: Type.String({ description: 'The id as requested (API keys masked).' }),
  success: Type.Literal(false),
  error: Type.Object({
    code: stringEnum(['invalid_post_id', 'post_not_found', 'upstream_unavailable', 'quota_exceeded'] as const, {
      description: 'Why this post is missing; failed items cost nothing.',
    }),
    message: Type.String(),
  }),
});

export const BulkResponse = Type.Object({
  results: Type.Array(Type.Union([BulkSuccess, BulkFailure]), { description: 'One item per requested id, in order.' }),
  total: Type.Integer({ description: 'Number of items.' }),
  successful: Type.Integer({ description: 'Items with success true.' }),
  failed: Type.Integer({ description: 'Items with success false.' }),
});

const METERED_HEADERS = { ...REQUEST_ID_HEADER, ...QUOTA_HEADERS, ...RATE_LIMIT_HEADERS };
const AUTH_PROBLEMS = {
  401: ['missing_api_key'],
  403: ['invalid_api_key', 'quota_exceeded', 'https_required'],
  429: ['rate_limited'],
} as const;

export const contentSchema = {
  operationId: 'getPostMarkdown',
  tags: ['Content'],
  summary: 'One post as Markdown',
  description:
    'The author line, text, media links, quoted post and counts of a public post as Markdown. Costs 1 credit.',
  security: API_KEY_SECURITY,
  params: TWEET_ID_PARAMS,
  querystring: MarkdownQuery,
  response: {
    200: {
      description: 'Markdown of the post.',
      headers: METERED_HEADERS,
      content: { 'text/markdown': { schema: Type.String() } },
    },
    ...problemResponses(
      {
        400: ['invalid_parameter', 'invalid_post_id'],
        ...AUTH_PROBLEMS,
        404: ['post_not_found'],
        502: ['upstream_unavailable'],
        504: ['upstream_timeout'],
        ...SERVER_PROBLEMS,
      },
      METERED_HEADERS,
    ),
  },
};

export const bulkContentSchema = {
  operationId: 'getPostsMarkdown',
  tags: ['Content'],
  summary: 'Many posts as Markdown',
  description:
    `Markdown of up to ${MAX_BULK_IDS} posts. Costs 1 credit per distinct post delivered; ` +
    'when credits run short the first ids (in request order) are served and the rest fail with `quota_exceeded`.',
  security: API_KEY_SECURITY,
  querystring: MarkdownQuery,
  body: BulkRequest,
  response: {
    200: {
      description: 'One result per requested id.',
      headers: METERED_HEADERS,
      content: { 'application/json': { schema: BulkResponse } },
    },
    ...problemResponses(
      {
        400: ['invalid_parameter', 'invalid_body', 'too_many_ids'],
        ...AUTH_PROBLEMS,
        413: ['payload_too_large'],
        415: ['unsupported_media_type'],
        ...SERVER_PROBLEMS,
      },
      METERED_HEADERS,
    ),
  },
};

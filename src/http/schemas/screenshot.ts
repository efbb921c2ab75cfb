// GET /api/v1/screenshot/{tweetId}. `ScreenshotQuery` is the render options schema (options.ts)
// plus returnType: the route reads its query by it (readScreenshotQuery), the OpenAPI document and
// the MCP tool `screenshot_post` describe it.
import Type, { type TSchema } from 'typebox';
import {
  CONTENT_TYPES,
  FORMATS,
  OPTION_NAMES,
  OPTIONS_SCHEMA,
  OptionError,
  parseOptions,
  type RenderOptionsFull,
} from '../../render/options.ts';
import { ProblemError } from '../problem.ts';
import { readEnum, rejectUnknownQuery } from '../query.ts';
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

export { FORMATS };
export const RETURN_TYPES = ['buffer', 'url'] as const;

/** Every render option (optional, with its default) and returnType. */
export const ScreenshotQuery = Type.Object(
  {
    ...Object.fromEntries(
      Object.entries(OPTIONS_SCHEMA.properties).map(([name, schema]) => [name, Type.Optional(schema as TSchema)]),
    ),
    returnType: Type.Optional(
      stringEnum(RETURN_TYPES, {
        default: 'buffer',
        description:
          '`buffer`: the bytes in the body. `url`: JSON with the address of the stored image (paid plans only).',
      }),
    ),
  },
  { additionalProperties: false },
);

const QUERY_NAMES = [...OPTION_NAMES, 'returnType'];

/**
 * The query as normalized render options. Values are case-insensitive and booleans take
 * true/false/1/0/yes/no, so this replaces the schema check for the query (which compares raw
 * values); a refusal is a 400 invalid_parameter naming the parameter, the value and what is allowed.
 */
export function readScreenshotQuery(
  query: unknown,
  postInPath?: string,
): { options: RenderOptionsFull; returnType: 'buffer' | 'url' } {
  rejectUnknownQuery(query, QUERY_NAMES, postInPath);
  const q = (query ?? {}) as Record<string, unknown>;
  const rt = typeof q.returnType === 'string' ? q.returnType.trim().toLowerCase() : q.returnType;
  try {
    return { options: parseOptions(q), returnType: readEnum({ returnType: rt }, 'returnType', RETURN_TYPES, 'buffer') };
  } catch (err) {
    if (err instanceof OptionError) throw new ProblemError('invalid_parameter', err.message);
    throw err;
  }
}

export const ScreenshotUrlResult = Type.Object({
  url: Type.String({ format: 'uri', description: 'Address of the hosted image.' }),
  format: stringEnum(FORMATS, { description: 'Output format of the image.' }),
  tweetId: Type.String({ description: 'Identifier of the post.' }),
});

const METERED_HEADERS = { ...REQUEST_ID_HEADER, ...QUOTA_HEADERS, ...RATE_LIMIT_HEADERS };

/** format -> media type of the body, without parameters. */
const bodyTypes = Object.fromEntries(
  FORMATS.map((f) => {
    const type = CONTENT_TYPES[f].split(';')[0];
    const binary = !type.startsWith('text/') && !type.endsWith('+xml');
    return [type, { schema: Type.String(binary ? { contentMediaType: type, format: 'binary' } : {}) }];
  }),
);

export const screenshotSchema = {
  operationId: 'getScreenshot',
  tags: ['Screenshots'],
  summary: 'Screenshot of a post',
  description:
    'Renders a public post as SVG, PNG, JPEG, WebP or HTML, with the options below. Costs 1 credit; failed requests cost nothing. ' +
    'With `returnType=url` the image is stored and the body is JSON with its address.',
  security: API_KEY_SECURITY,
  params: TWEET_ID_PARAMS,
  querystring: readByRoute(ScreenshotQuery),
  response: {
    200: {
      description:
        'The rendered post: bytes of the requested format (`returnType=buffer`), or JSON (`returnType=url`).',
      headers: METERED_HEADERS,
      content: { ...bodyTypes, 'application/json': { schema: ScreenshotUrlResult } },
    },
    ...problemResponses(
      {
        400: ['invalid_parameter', 'invalid_post_id'],
        401: ['missing_api_key', 'invalid_api_key'],
        403: ['quota_exceeded', 'plan_restricted', 'https_required'],
        404: ['post_not_found'],
        429: ['rate_limited'],
        502: ['upstream_unavailable'],
        504: ['upstream_timeout', 'render_timeout'],
        ...SERVER_PROBLEMS,
      },
      METERED_HEADERS,
    ),
  },
};

// GET /api/v1/screenshot/{tweetId}. `ScreenshotQuery` is the one description of the screenshot
// options: the route validates with it, the OpenAPI document and the MCP tool `screenshot_post` read it.
import Type from 'typebox';
import { CONTENT_TYPES } from '../../render/renderer.ts';
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

export const FORMATS = ['svg', 'png', 'html'] as const;
export const THEMES = ['light', 'dark'] as const;
export const RETURN_TYPES = ['buffer', 'url'] as const;

export const ScreenshotQuery = Type.Object(
  {
    format: Type.Optional(
      stringEnum(FORMATS, {
        default: 'svg',
        description: 'Output format: `svg` (vector), `png` (2x raster) or `html` (self-contained page).',
      }),
    ),
    theme: Type.Optional(stringEnum(THEMES, { default: 'light', description: "X's light or dark (black) theme." })),
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
    'Renders a public post as SVG, PNG or HTML. Costs 1 credit; failed requests cost nothing. ' +
    'With `returnType=url` the image is stored and the body is JSON with its address.',
  security: API_KEY_SECURITY,
  params: TWEET_ID_PARAMS,
  querystring: ScreenshotQuery,
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

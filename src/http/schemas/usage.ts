import Type from 'typebox';
import { PLAN_NAMES } from '../../quota/plans.ts';
import {
  API_KEY_SECURITY,
  problemResponses,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  SERVER_PROBLEMS,
  stringEnum,
} from './common.ts';

export const UsageResponse = Type.Object({
  remaining: Type.Integer({ minimum: 0, description: 'Credits left in the current period.' }),
  limit: Type.Integer({ minimum: 0, description: 'Credits of the current period.' }),
  plan: stringEnum(PLAN_NAMES, { description: 'Plan of the account.' }),
  used: Type.Integer({ minimum: 0, description: 'Credits used in the current period.' }),
  periodStart: Type.String({ format: 'date-time', description: 'Start of the current period.' }),
  periodEnd: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'End of the current period; null for the one-time free allowance.',
  }),
});

const HEADERS = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS };

export const usageSchema = {
  operationId: 'getUsage',
  tags: ['Usage'],
  summary: 'Quota of the calling key',
  description: 'Remaining and total credits of the account that owns the key. Free.',
  security: API_KEY_SECURITY,
  querystring: Type.Object({}, { additionalProperties: false }),
  response: {
    200: {
      description: 'The quota of the current period.',
      headers: HEADERS,
      content: { 'application/json': { schema: UsageResponse } },
    },
    ...problemResponses(
      {
        400: ['invalid_parameter'],
        401: ['missing_api_key', 'invalid_api_key'],
        403: ['unknown_api_key', 'https_required'],
        429: ['rate_limited'],
        ...SERVER_PROBLEMS,
      },
      HEADERS,
    ),
  },
};

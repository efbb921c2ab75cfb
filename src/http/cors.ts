import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../container.ts';

// What a browser script may read from an answer beyond the safelisted headers.
const API_EXPOSED = [
  'X-Quota-Remaining',
  'X-Quota-Limit',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Content-Disposition',
];

// A route's own cors config is used as given (the plugin turns a number into max-age only in its
// global options): Cache-Control as the header's text.
const COMMON = { strictPreflight: false, maxAge: 600, cacheControl: 'max-age=600' } as const;

/** Hosted images are public: any origin may read them. Set as the `cors` config of their routes. */
export const IMAGES_CORS: FastifyCorsOptions = {
  ...COMMON,
  origin: '*',
  methods: ['GET', 'HEAD'],
  allowedHeaders: ['Range', 'If-None-Match', 'If-Modified-Since', 'If-Range', 'X-Request-Id'],
  exposedHeaders: ['ETag', 'Accept-Ranges', 'Content-Range', 'X-Request-Id'],
};

/**
 * The API answers browsers only from the origins in POSTSHOT_CORS_ORIGINS (none by default),
 * since a key used from a page is visible to that page's visitors. Static options, not a
 * per-request delegator: the plugin then costs next to nothing on requests it does not serve.
 */
export async function registerCors(app: FastifyInstance, c: Container): Promise<void> {
  const origins = c.config.corsOrigins;
  await app.register(cors, {
    ...COMMON,
    hook: 'onRequest',
    origin: origins.length === 0 ? false : origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['X-API-KEY', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: API_EXPOSED,
  });
}

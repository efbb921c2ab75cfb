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

/**
 * Hosted images are public (any origin); the API answers browsers only from the origins in
 * POSTSHOT_CORS_ORIGINS, since a key used from a page is visible to that page's visitors.
 */
export async function registerCors(app: FastifyInstance, c: Container): Promise<void> {
  const common = { strictPreflight: false, maxAge: 600, cacheControl: 600 } as const;
  const images: FastifyCorsOptions = {
    ...common,
    origin: '*',
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['Range', 'If-None-Match', 'If-Modified-Since', 'If-Range', 'X-Request-Id'],
    exposedHeaders: ['ETag', 'Accept-Ranges', 'Content-Range', 'X-Request-Id'],
  };
  const origins = c.config.corsOrigins;
  const api: FastifyCorsOptions = {
    ...common,
    origin: origins.length === 0 ? false : origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['X-API-KEY', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: API_EXPOSED,
  };
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => callback(null, request.url.startsWith('/images/') ? images : api),
  });
}

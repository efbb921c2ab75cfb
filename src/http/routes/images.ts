import type { FastifyInstance } from 'fastify';
import fresh from 'fresh';
import parseRange from 'range-parser';
import type { Container } from '../../container.ts';
import { IMAGES_CORS } from '../cors.ts';
import { IMAGE_KEY } from '../../storage/images/interface.ts';
import { sendProblem } from '../problem.ts';
import { setRenderedHeaders } from '../response-headers.ts';
import { imageSchema } from '../schemas/service.ts';
import { documented } from '../schemas/validation.ts';

/**
 * The Range header as RFC 9110 §14.1 reads it, for range-parser 1.x, or null where a recipient
 * ignores it. range-parser reads it otherwise in three places: the unit is case-insensitive
 * (`BYTES=0-1`); a suffix longer than the image means the whole image (§14.1.3), where range-parser
 * calls it unsatisfiable (such a suffix becomes `-size`); and a `bytes` set holding a spec that does
 * not parse (`bytes=5-1`, `bytes=abc`) is ignored, where range-parser skips the spec and, with no
 * range left, answered 416.
 */
function readRange(header: string, size: number): string | null {
  const eq = header.indexOf('=');
  if (eq === -1 || header.slice(0, eq).toLowerCase() !== 'bytes') return header; // range-parser refuses it
  const specs: string[] = [];
  for (const spec of header.slice(eq + 1).split(',')) {
    const m = /^[ \t]*(?:(\d+)-(\d*)|-(\d+))[ \t]*$/.exec(spec);
    if (m === null || (m[2] && BigInt(m[2]) < BigInt(m[1]))) return null;
    specs.push(m[3] !== undefined && Number(m[3]) > size ? `-${size}` : spec);
  }
  return `bytes=${specs.join(',')}`;
}

/**
 * RFC 9110 §13.2.2: If-Match (a strong comparison, or `*`), else If-Unmodified-Since, is checked
 * before the rest; a client that names a copy it does not hold must not be handed another.
 */
function failsPrecondition(headers: Record<string, unknown>, etag: string, lastModified?: string): boolean {
  const ifMatch = headers['if-match'];
  if (typeof ifMatch === 'string') {
    const tags = ifMatch.split(',').map((t) => t.trim());
    return !tags.includes('*') && !tags.includes(etag);
  }
  const since = typeof headers['if-unmodified-since'] === 'string' ? Date.parse(headers['if-unmodified-since']) : NaN;
  return lastModified !== undefined && !Number.isNaN(since) && Date.parse(lastModified) > since;
}

/**
 * Hosted images (returnType=url) by content hash: immutable, so the hash is a strong ETag and the
 * answer may be cached for a year. Served as stored, never compressed, so that the ETag and byte
 * ranges always describe exactly the bytes sent (a resumed download must fit the first part).
 */
export function registerImageRoutes(app: FastifyInstance, c: Container): void {
  // Preflights are answered by the CORS plugin's hook; this route only gives them the image options.
  app.options('/images/:key', { schema: { hide: true }, config: { cors: IMAGES_CORS } }, (_request, reply) =>
    reply.callNotFound(),
  );
  app.get(
    '/images/:key',
    { ...documented(imageSchema), compress: false, config: { cors: IMAGES_CORS } },
    async (request, reply) => {
      const { key } = request.params as { key: string };
      const found = IMAGE_KEY.test(key) ? await c.images.get(key) : null;
      if (!found) return sendProblem(request, reply, 'not_found', 'No stored image has this name.');
      const etag = `"${key.slice(0, key.indexOf('.'))}"`;
      const lastModified = found.lastModified?.toUTCString();
      setRenderedHeaders(reply, found.contentType)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', etag)
        .header('Accept-Ranges', 'bytes');
      if (lastModified) reply.header('Last-Modified', lastModified);
      if (failsPrecondition(request.headers, etag, lastModified))
        return sendProblem(
          request,
          reply,
          'precondition_failed',
          'The stored image is not the one If-Match or If-Unmodified-Since names.',
        );
      // `fresh` calls any request with `Cache-Control: no-cache` stale, but that directive asks caches
      // to revalidate with the origin, which is this answer: fetch() adds it to every request that
      // carries If-None-Match or If-Modified-Since, so without this no fetch() client ever got a 304.
      const conditions = { ...request.headers, 'cache-control': undefined };
      if (fresh(conditions, { etag, 'last-modified': lastModified })) return reply.code(304).send();

      const size = found.bytes.length;
      const range = request.headers.range && readRange(request.headers.range, size);
      // If-Range names the representation the client already holds part of; another one gets it all.
      const ifRange = request.headers['if-range'];
      if (
        range &&
        (ifRange === undefined || ifRange === etag || (lastModified !== undefined && ifRange === lastModified))
      ) {
        const ranges = parseRange(size, range, { combine: true });
        if (ranges === -1) {
          reply.header('Content-Range', `bytes */${size}`);
          return sendProblem(
            request,
            reply,
            'range_not_satisfiable',
            `The image has ${size} bytes; no requested range starts within them.`,
          );
        }
        // Malformed, not in bytes, or several ranges: the whole image (a server may ignore Range).
        if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
          const { start, end } = ranges[0];
          return reply
            .code(206)
            .header('Content-Range', `bytes ${start}-${end}/${size}`)
            .send(found.bytes.subarray(start, end + 1));
        }
      }
      return reply.send(found.bytes);
    },
  );
}

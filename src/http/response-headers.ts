import type { FastifyReply } from 'fastify';
import { COMPRESSIBLE } from './compression.ts';

/** Buffer screenshots and Markdown: the caller's own copy may be reused for five minutes. */
export const PRIVATE_SHORT_CACHE = 'private, max-age=300';

// Served documents may not run or load anything, whoever opens them; any page may frame them.
const DOCUMENT_CSP =
  "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";

/** SVG and HTML are documents a browser runs; raster images (PNG, JPEG, WebP) are not. */
function isDocument(contentType: string): boolean {
  return /^(?:image\/svg\+xml|text\/html)(?:;|$)/.test(contentType);
}

/**
 * Headers of a rendered screenshot or hosted image, by content type: documents get the locked-down
 * CSP with `frame-ancestors *` and no `X-Frame-Options: DENY` (embedding is what they are for).
 */
export function setRenderedHeaders(reply: FastifyReply, contentType: string): FastifyReply {
  reply.type(contentType);
  if (isDocument(contentType)) {
    reply.header('Content-Security-Policy', DOCUMENT_CSP);
    reply.removeHeader('X-Frame-Options');
  }
  return reply;
}

/** `inline; filename="post-<id>.<ext>"`, the extension from the media subtype (image/svg+xml → svg). */
export function inlineFileName(id: string, contentType: string): string {
  const subtype = contentType.split(';')[0].split('/')[1] ?? 'bin';
  return `inline; filename="post-${id}.${subtype.replace(/\+.*$/, '').trim()}"`;
}

/**
 * `Vary: accept-encoding` on answers that are compressed when asked, set before the body exists
 * so that HEAD (which has none) shows it as GET does. Appends to a Vary already set (CORS: Origin).
 */
export function varyOnEncoding(reply: FastifyReply, contentType: string): FastifyReply {
  if (!COMPRESSIBLE.test(contentType)) return reply;
  const vary = reply.getHeader('Vary');
  if (vary === undefined) return reply.header('Vary', 'accept-encoding');
  return /accept-encoding/i.test(String(vary)) ? reply : reply.header('Vary', `${vary}, accept-encoding`);
}

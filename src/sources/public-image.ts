// backgroundImage: an image from any public https host, chosen by the caller.
//
// Threat model: the URL is attacker-chosen, so this is the media fetcher's SSRF guard widened
// from X's CDN to any host and nothing else: https only, no credentials, port 443; a host that
// is an IP literal must be public, and a name is checked after DNS resolution (guardedLookup:
// rebinding and names pointing inside are refused; resolved off the thread pool, bounded); redirects pass the same checks, at most 3;
// the body is capped in bytes, must declare JPEG, PNG or WebP and decode within a pixel cap;
// the whole fetch, redirects included, is timed. A refusal is a value naming the reason, never an exception.
import sharp from '../render/sharp-setup.ts';
import { HttpError, httpGet } from '../net/http-client.ts';
import type { LookupFunction } from 'node:net';
import { guardedLookup } from '../net/guarded-lookup.ts';
import { checkPublicImageUrl } from './public-image-url.ts';

const TYPES = /^image\/(jpeg|png|webp)\b/i;
/** What sharp calls the decoded formats accepted. */
const FORMATS = new Set(['jpeg', 'png', 'webp']);
const MAX_REDIRECTS = 3;
const MAX_PIXELS = 40_000_000;

export type PublicImage = { ok: true; bytes: Buffer } | { ok: false; reason: string };

export interface PublicImageOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Tests, demo, bench: fetch `<mediaUrl>/<host><path>` instead, after the same URL checks. */
  mediaUrl?: string;
  /** Name resolution with the address checks (src/net/guarded-lookup.ts); the system nameservers' when absent. */
  lookup?: LookupFunction;
}

export async function fetchPublicImage(
  raw: string,
  options: PublicImageOptions,
  hops = 0,
  // One deadline for the redirects too: a fresh timeout per hop let a host that answers each
  // one slowly hold the request for four timeouts.
  deadline = Date.now() + options.timeoutMs,
): Promise<PublicImage> {
  const check = checkPublicImageUrl(raw);
  if (!check.ok) return check;
  const timeoutMs = deadline - Date.now();
  if (timeoutMs <= 0) return { ok: false, reason: 'timed out' };
  const target = options.mediaUrl
    ? new URL(`${options.mediaUrl}/${check.url.hostname}${check.url.pathname}${check.url.search}`)
    : check.url;
  try {
    const res = await httpGet(target, {
      timeoutMs,
      maxBytes: options.maxBytes,
      lookup: options.mediaUrl ? undefined : (options.lookup ?? guardedLookup),
      headers: { accept: 'image/webp,image/png,image/jpeg' },
    });
    if (res.status >= 300 && res.status < 400 && typeof res.headers.location === 'string') {
      if (hops >= MAX_REDIRECTS) return { ok: false, reason: 'redirects too many times' };
      // A Location that is no URL (`http://[`) is the host's fault, not ours: refused like any other.
      const next = URL.parse(res.headers.location, check.url);
      if (!next) return { ok: false, reason: 'redirects to an address that is not a URL' };
      return fetchPublicImage(next.toString(), options, hops + 1, deadline);
    }
    if (res.status !== 200) return { ok: false, reason: `could not be fetched (HTTP ${res.status})` };
    if (!TYPES.test(String(res.headers['content-type'] ?? '')))
      return { ok: false, reason: 'is not a JPEG, PNG or WebP image' };
    const meta = await sharp(res.body, { limitInputPixels: MAX_PIXELS }).metadata();
    // The bytes decide, not the declared type: sharp decodes SVG, GIF, TIFF, HEIF... as well, and
    // an SVG of a few kilobytes (blurs over a large canvas) kept a decoder thread busy for minutes.
    if (!FORMATS.has(meta.format ?? '')) return { ok: false, reason: 'is not a JPEG, PNG or WebP image' };
    if (!meta.width || !meta.height) return { ok: false, reason: 'could not be decoded' };
    return { ok: true, bytes: res.body };
  } catch (err) {
    if (err instanceof HttpError) {
      const why: Record<string, string> = {
        timeout: 'timed out',
        too_large: 'is too large',
        blocked: 'must point at a public host',
        network: 'could not be fetched',
      };
      return { ok: false, reason: why[err.kind] ?? 'could not be fetched' };
    }
    // sharp: over the pixel cap, or bytes of no format it knows. Each refusal says which: a page
    // or a text served as image/png is "not an image", not a size problem.
    if (err instanceof Error && /pixel limit/i.test(err.message))
      return { ok: false, reason: `is over ${MAX_PIXELS / 1e6} megapixels` };
    if (err instanceof Error && /unsupported image format/i.test(err.message))
      return { ok: false, reason: 'is not a JPEG, PNG or WebP image' };
    if (err instanceof Error && /Input/i.test(err.message)) return { ok: false, reason: 'could not be decoded' };
    throw err;
  }
}

// Media fetcher and SSRF guard.
//
// Threat model: media URLs come from upstream JSON, which we do not control: a compromised or
// spoofed source (or a post crafted to carry odd URLs) could point us at internal services
// (cloud metadata at 169.254.169.254, localhost admin ports, the private network) or at a huge
// or endless body. Rendering must never become a way to read or probe anything but X's public
// media CDN. So:
// - only https: URLs on pbs.twimg.com, video.twimg.com and abs.twimg.com are fetched;
// - the address a name resolves to is checked after DNS resolution (defeats DNS rebinding and
//   names pointing inside): loopback, private, link-local, CGNAT, multicast and reserved ranges
//   are refused; names are resolved off libuv's thread pool, bounded (src/net/guarded-lookup.ts);
// - redirects are followed only to the same allowed hosts over https, at most 3;
// - bodies are capped in bytes and must declare an image content type; every fetch is timed;
// - a refused or failed fetch yields null (the renderer draws a placeholder), never an error
//   that fails the request.
// POSTSHOT_MEDIA_URL (tests, demo, bench) rewrites the transport to a configured base after the
// same URL checks: it is operator configuration, not input.
import type { LookupFunction } from 'node:net';
import type { Clock } from '../clock.ts';
import { guardedLookup } from '../net/guarded-lookup.ts';
import { HttpError, httpGet } from '../net/http-client.ts';
import { MemorySingleFlight } from '../storage/cache/memory.ts';
import { ByteLru } from '../util/byte-lru.ts';

export { guardedLookup, isPublicAddress } from '../net/guarded-lookup.ts';

export const MEDIA_HOSTS = new Set(['pbs.twimg.com', 'video.twimg.com', 'abs.twimg.com']);
const IMAGE_TYPES = /^image\/(jpeg|jpg|png|webp|gif)\b/i;
const MAX_REDIRECTS = 3;

export type MediaCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL rules, separate from any fetching so they can be tested on their own. */
export function checkMediaUrl(raw: string): MediaCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `${url.protocol} is not https:` };
  if (url.username || url.password) return { ok: false, reason: 'credentials in URL' };
  if (url.port && url.port !== '443') return { ok: false, reason: 'non-standard port' };
  if (!MEDIA_HOSTS.has(url.hostname.toLowerCase()))
    return { ok: false, reason: `${url.hostname} is not an X media host` };
  return { ok: true, url };
}

/** Picks the size variant of an X media URL for an image drawn `px` device pixels wide. */
export function sizedMediaUrl(raw: string, px: number): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.hostname !== 'pbs.twimg.com') return raw;
  if (url.pathname.startsWith('/profile_images/')) {
    const suffix = px <= 48 ? '_normal' : px <= 73 ? '_bigger' : px <= 200 ? '_200x200' : '_400x400';
    url.pathname = url.pathname.replace(
      /_(normal|bigger|mini|200x200|400x400)(\.\w+)?$/,
      (_m, _s, ext = '') => `${suffix}${ext}`,
    );
    return url.toString();
  }
  if (/^\/(media|ext_tw_video_thumb|amplify_video_thumb|tweet_video_thumb)\//.test(url.pathname)) {
    const name = px <= 680 ? 'small' : px <= 1200 ? 'medium' : 'large';
    const ext = /\.(jpg|jpeg|png|webp)$/i.exec(url.pathname);
    if (ext && !url.searchParams.has('format')) {
      url.pathname = url.pathname.slice(0, -ext[0].length);
      url.searchParams.set('format', ext[1].toLowerCase() === 'jpeg' ? 'jpg' : ext[1].toLowerCase());
    }
    url.searchParams.set('name', name);
    return url.toString();
  }
  return raw;
}

export interface MediaAsset {
  bytes: Buffer;
  contentType: string;
}

export interface MediaFetcherOptions {
  mediaUrl?: string;
  timeoutMs: number;
  maxBytes: number;
  clock: Clock;
  /** Total bytes kept in the in-memory cache. */
  cacheBytes?: number;
  /** Where a failed or refused fetch is reported (the service's logger at warn). */
  logFailure?: (fields: Record<string, unknown>, message: string) => void;
  /** Name resolution with the address checks (src/net/guarded-lookup.ts); the system nameservers' when absent. */
  lookup?: LookupFunction;
}

/** Why a media fetch gave nothing: the card draws a placeholder. */
interface MediaFailure {
  failed: true;
  status?: number;
  code: string;
  detail: string;
}

/** Fetches X media with the guard above; caches bytes and (briefly) failures. */
export class MediaFetcher {
  private readonly cache: ByteLru<{ asset: MediaAsset | null; expires: number }>;
  private readonly inflight = new MemorySingleFlight();

  constructor(private readonly options: MediaFetcherOptions) {
    // A failure counts as one byte, so failures are bounded too.
    this.cache = new ByteLru(options.cacheBytes ?? 128 * 1024 * 1024, (e) => e.asset?.bytes.length ?? 1);
  }

  /** Null when the URL is refused or the fetch fails: the caller draws a placeholder. */
  async fetch(raw: string): Promise<MediaAsset | null> {
    const cached = this.cache.get(raw);
    if (cached && cached.expires > this.options.clock()) return cached.asset;
    return this.inflight.run(`media:${raw}`, () => this.load(raw));
  }

  private async load(raw: string): Promise<MediaAsset | null> {
    const started = performance.now();
    const got = await this.fetchFollowing(raw, 0);
    const asset = 'failed' in got ? null : got;
    // Once per URL while its failure is cached, below: a popular broken image does not flood the log.
    if ('failed' in got)
      this.options.logFailure?.(
        {
          source: 'media',
          url: raw.slice(0, 300),
          status: got.status,
          code: got.code,
          durationMs: Math.round(performance.now() - started),
          detail: got.detail,
        },
        'upstream media failed',
      );
    // Failures are retried after a short while; successes live until evicted by size.
    this.cache.set(raw, { asset, expires: asset ? Number.POSITIVE_INFINITY : this.options.clock() + 30_000 });
    return asset;
  }

  /**
   * One deadline for the redirects too: a fresh timeout per hop let a host answering each one
   * slowly hold a card for four timeouts.
   */
  private async fetchFollowing(
    raw: string,
    hops: number,
    deadline = Date.now() + this.options.timeoutMs,
  ): Promise<MediaAsset | MediaFailure> {
    const check = checkMediaUrl(raw);
    if (!check.ok) return { failed: true, code: 'refused', detail: check.reason };
    const timeoutMs = deadline - Date.now();
    if (timeoutMs <= 0) return { failed: true, code: 'timeout', detail: 'timed out following redirects' };
    const target = this.options.mediaUrl
      ? new URL(`${this.options.mediaUrl}/${check.url.hostname}${check.url.pathname}${check.url.search}`)
      : check.url;
    try {
      const res = await httpGet(target, {
        timeoutMs,
        maxBytes: this.options.maxBytes,
        lookup: this.options.mediaUrl ? undefined : (this.options.lookup ?? guardedLookup),
        headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,*/*;q=0.5' },
      });
      if (res.status >= 300 && res.status < 400 && typeof res.headers.location === 'string') {
        if (hops >= MAX_REDIRECTS)
          return { failed: true, status: res.status, code: 'redirects', detail: 'too many redirects' };
        // Relative redirects resolve against the original media URL, then pass the same checks.
        const next = URL.parse(res.headers.location, check.url);
        if (!next) return { failed: true, status: res.status, code: 'redirects', detail: 'redirect to no URL' };
        return this.fetchFollowing(next.toString(), hops + 1, deadline);
      }
      if (res.status !== 200) return { failed: true, status: res.status, code: 'status', detail: `HTTP ${res.status}` };
      const type = String(res.headers['content-type'] ?? '');
      if (!IMAGE_TYPES.test(type))
        return { failed: true, status: res.status, code: 'content_type', detail: `not an image: ${type.slice(0, 60)}` };
      return { bytes: res.body, contentType: type.split(';')[0].trim().toLowerCase() };
    } catch (err) {
      if (err instanceof HttpError) return { failed: true, code: err.code ?? err.kind, detail: err.message };
      throw err;
    }
  }
}

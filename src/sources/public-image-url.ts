// backgroundImage's URL rules, apart from fetching (public-image.ts fetches): checked when the
// options are parsed, and again by the fetch. Threat model there.
import net from 'node:net';
import { isPublicAddress } from '../net/guarded-lookup.ts';

/** The URL rules, apart from fetching. */
export function checkPublicImageUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https:// URL' };
  if (url.username || url.password) return { ok: false, reason: 'may not carry credentials' };
  if (url.port && url.port !== '443') return { ok: false, reason: 'must use the standard https port' };
  // `localhost.` is `localhost` too: the trailing dot only marks the name as fully qualified.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (net.isIP(host) ? !isPublicAddress(host) : host === 'localhost' || host.endsWith('.localhost'))
    return { ok: false, reason: 'must point at a public host' };
  return { ok: true, url };
}

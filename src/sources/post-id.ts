// Turns what a caller sends as `tweetId` into a post id, or says why it cannot.

export type PostIdResult = { ok: true; id: string } | { ok: false; reason: string };

const MAX_ID = 9223372036854775807n; // ids are signed 64-bit integers
const HOSTS = new Set([
  'x.com',
  'twitter.com',
  'mobile.twitter.com',
  'mobile.x.com',
  'fxtwitter.com',
  'vxtwitter.com',
  'fixupx.com',
  'fixvx.com',
  'nitter.net',
]);

function checkNumeric(raw: string): PostIdResult {
  if (!/^[0-9]{1,19}$/.test(raw)) {
    return {
      ok: false,
      reason:
        raw.length > 19 && /^[0-9]+$/.test(raw) ? 'a post id has at most 19 digits' : 'a post id is 1 to 19 digits',
    };
  }
  if (/^0/.test(raw)) return { ok: false, reason: 'a post id does not start with 0' };
  if (BigInt(raw) > MAX_ID) return { ok: false, reason: 'the id is larger than any post id' };
  return { ok: true, id: raw };
}

/** The reason for input that is neither: an answer that already says so leaves it out. */
export const NOT_ID_OR_URL = 'not a numeric id or a post URL';

// A post's URL path, and the post's own pages on X that link to it too: a photo or video of it,
// its analytics, quotes, reposts, likes, edits.
const STATUS_PATH = String.raw`^\/(?:i\/(?:web\/)?status|[A-Za-z0-9_]{1,50}\/status(?:es)?)\/([0-9]+)`;
const POST_PATH = new RegExp(
  String.raw`${STATUS_PATH}(?:\/(?:(?:photo|video)\/[1-4]|analytics|quotes|retweets(?:\/with_comments)?|likes|history))?\/?$`,
);
const OTHER_PAGE = new RegExp(String.raw`${STATUS_PATH}\/(.+?)\/?$`);

/** Accepts a numeric id or a post URL (x.com, twitter.com, mobile., fxtwitter, vxtwitter, /i/status/), with or without scheme and query. */
export function parsePostId(input: string): PostIdResult {
  // A proxy that merges slashes turns an unencoded https://x.com/... in the path into https:/x.com/...
  const raw = input.trim().replace(/^(https?):\/(?!\/)/i, '$1://');
  if (raw.length === 0) return { ok: false, reason: 'the post id is empty' };
  if (raw.length > 512) return { ok: false, reason: 'the post id or URL is too long' };
  if (/^[0-9]+$/.test(raw)) return checkNumeric(raw);
  // Number-like but not digits: a sign, a decimal point or an exponent (what a float or JSON number gives).
  if (/^[+-]?[0-9.]*[0-9][0-9.]*(?:e[+-]?[0-9]+)?$/i.test(raw))
    return { ok: false, reason: 'a post id is digits only, without a sign, decimal point or exponent' };
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return { ok: false, reason: NOT_ID_OR_URL };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'a post URL uses http or https' };
  if (url.username || url.password || url.port) return { ok: false, reason: 'not a post URL' };
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (!HOSTS.has(host)) {
    // Named as typed (the URL parser gives 😀 as xn--e28h); a word without a dot is no URL at all.
    const typed = raw.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0];
    if (!typed.includes('.')) return { ok: false, reason: NOT_ID_OR_URL };
    return { ok: false, reason: `"${typed.slice(0, 64)}" is not an X post URL host` };
  }
  const m = POST_PATH.exec(url.pathname);
  if (!m) {
    const page = OTHER_PAGE.exec(url.pathname);
    if (page)
      return {
        ok: false,
        reason: `"/${page[2].slice(0, 40)}" is not one of a post's pages (photo/1-4, video/1-4, analytics, quotes, retweets, likes, history)`,
      };
    return { ok: false, reason: 'the URL is not a link to a post (expected /<user>/status/<id>)' };
  }
  return checkNumeric(m[1]);
}

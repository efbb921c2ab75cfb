import { type HttpError, httpGet, type HttpResponse } from '../net/http-client.ts';

export const USER_AGENT = 'postshot/0.1 (+https://github.com/postshot; self-hosted post renderer)';
const MAX_BODY = 2 * 1024 * 1024;

export type UpstreamAnswer =
  | { ok: true; status: number; json: unknown; contentType: string }
  /** `code`: the system error code, or the failure's kind (timeout, too_large, ...) when there is none. */
  | { ok: false; status?: number; code?: string; detail: string; timeout: boolean };

/** GETs a JSON body from an upstream API: capped, timed, redirects refused, non-JSON reported. */
export async function fetchUpstreamJson(url: URL, timeoutMs: number): Promise<UpstreamAnswer> {
  let res: HttpResponse;
  try {
    res = await httpGet(url, {
      timeoutMs,
      maxBytes: MAX_BODY,
      headers: { 'user-agent': USER_AGENT, accept: 'application/json' },
    });
  } catch (err) {
    const e = err as HttpError;
    return { ok: false, code: e.code ?? e.kind, detail: e.message, timeout: e.kind === 'timeout' };
  }
  if (res.status >= 300 && res.status < 400) {
    return { ok: false, status: res.status, detail: `redirect (${res.status}) refused`, timeout: false };
  }
  const contentType = String(res.headers['content-type'] ?? '');
  // An empty body says nothing; it reads as the empty object (syndication's way of saying "unavailable").
  if (res.body.toString('utf8').trim() === '') return { ok: true, status: res.status, json: {}, contentType };
  // Both APIs answer application/json; anything else (an HTML error page, a captive portal) is a fault.
  if (contentType && !/\bjson\b/i.test(contentType)) {
    return {
      ok: false,
      status: res.status,
      detail: `unexpected content type ${contentType.slice(0, 60)}`,
      timeout: false,
    };
  }
  try {
    return { ok: true, status: res.status, json: parseWellFormed(res.body.toString('utf8')), contentType };
  } catch {
    return {
      ok: false,
      status: res.status,
      detail: `body is not JSON (${contentType || 'no content type'})`,
      timeout: false,
    };
  }
}

// A JSON string may hold a lone surrogate as an escape (`"\\ud800"`); the bytes themselves, read as
// UTF-8, never do. Half a pair is no character: every consumer that needs a well-formed string
// (encodeURIComponent for a Markdown link, a text encoder) throws or guesses. Each becomes U+FFFD.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const LONE_SURROGATES = /\p{Cs}/gu;

function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? value.replace(LONE_SURROGATES, '\ufffd') : value;
}

/** JSON.parse, its strings made well-formed when the text escapes a surrogate. */
function parseWellFormed(text: string): unknown {
  return SURROGATE_ESCAPE.test(text) ? JSON.parse(text, wellFormed) : JSON.parse(text);
}

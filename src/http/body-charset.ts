import { ProblemError } from './problem.ts';

// Charsets whose bytes are read as UTF-8: UTF-8 itself, and ASCII, a subset of it.
const READ_AS_UTF8 = new Set(['utf-8', 'utf8', 'us-ascii']);

/** The charset parameter of a Content-Type value, unquoted; null when there is none. */
export function readCharset(contentType: string): string | null {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return null;
}

/**
 * JSON travels in UTF-8 (RFC 8259 §8.1), and so do the account pages' forms: a body declared in
 * any other charset is refused (415), since reading its bytes as UTF-8 would misread it.
 */
export function refuseForeignCharset(contentType: string | undefined, body = 'the JSON body'): ProblemError | null {
  const charset = readCharset(contentType ?? '');
  if (charset === null || READ_AS_UTF8.has(charset.toLowerCase())) return null;
  return new ProblemError(
    'unsupported_media_type',
    `Content-Type charset ${JSON.stringify(charset.slice(0, 40))} is not supported; send ${body} in UTF-8 (charset=utf-8, or no charset).`,
    415,
  );
}

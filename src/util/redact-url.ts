/**
 * A connection URL fit for a log line or an error message: the password (in the user part or a
 * `password` parameter) is replaced, the rest kept so the operator can tell which server is meant.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not parseable: everything up to the last @ may be credentials.
    return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1redacted@').replace(/(password=)[^&]*/gi, '$1redacted');
  }
  if (url.password) url.password = 'redacted';
  if (url.searchParams.has('password')) url.searchParams.set('password', 'redacted');
  return url.toString();
}

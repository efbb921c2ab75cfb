/**
 * A request's Transfer-Encoding naming a coding other than chunked (`gzip, chunked`), or null.
 * Node's parser removes the chunked framing only: the body would reach the parsers still coded,
 * to be refused as "not valid UTF-8" or, were its bytes plain text, read as if it had no coding.
 */
export function foreignTransferCoding(header: string | undefined): string | null {
  if (header === undefined) return null;
  const codings = header.split(',').map((c) => c.trim().toLowerCase());
  return codings.some((c) => c !== 'chunked' && c !== '') ? header.slice(0, 60) : null;
}

// How a boolean is spelled in a query string or on a command line, one way for every endpoint
// and flag: clients send `True`, `1` or `yes` as readily as `true`.
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** The accepted spellings, for refusals and documentation. */
export const BOOLEAN_WORDS = 'true, false, 1, 0, yes or no';

/** The boolean a word spells (any case, spaces around ignored); undefined when it spells none. */
export function parseBooleanWord(raw: string): boolean | undefined {
  const word = raw.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : undefined;
}

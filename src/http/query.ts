import { BOOLEAN_WORDS, parseBooleanWord } from '../util/boolean-word.ts';
import { ProblemError } from './problem.ts';

type Query = Record<string, unknown>;

/** The query of X's share links (`?s=20`, `?t=…`). */
const SHARE_LINK_PARAMS = ['s', 't'];

/**
 * Unknown query parameters are refused so that a typo (`fromat=png`) never silently does the
 * default. `postInPath` is the post as the path gave it: when it is a URL and the unknown names are
 * X's share-link parameters, the refusal says they were the URL's own query, left unencoded.
 */
export function rejectUnknownQuery(query: unknown, allowed: readonly string[], postInPath?: string): void {
  const unknown = Object.keys((query ?? {}) as Query).filter((name) => !allowed.includes(name));
  if (unknown.length === 0) return;
  const name = `Unknown query parameter "${truncate(unknown[0])}".`;
  if (isShareLinkQuery(unknown, postInPath)) throw new ProblemError('invalid_parameter', `${name} ${SHARE_LINK_HINT}`);
  const hint = allowed.length ? ` Allowed: ${allowed.join(', ')}.` : ' This endpoint takes no query parameters.';
  throw new ProblemError('invalid_parameter', `${name}${hint}`);
}

const SHARE_LINK_HINT =
  "It looks like part of the post's URL (X's share links end in ?s= or ?t=): URL-encode the URL in the path " +
  '(https%3A%2F%2Fx.com%2F…), or leave its query out.';

function isShareLinkQuery(unknown: readonly string[], postInPath: string | undefined): boolean {
  const postIsUrl = postInPath !== undefined && !/^\d*$/.test(postInPath);
  return postIsUrl && unknown.every((name) => SHARE_LINK_PARAMS.includes(name));
}

/** One of a fixed set of values; absent means the default; repeated or anything else is a 400 naming the allowed values. */
export function readEnum<T extends string>(query: unknown, name: string, allowed: readonly T[], fallback: T): T {
  const raw = (query as Query)?.[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) {
    throw refusal(name, `one of ${allowed.join(', ')}`, raw);
  }
  return raw as T;
}

/** A boolean spelled as the screenshot options spell theirs; absent means the default. */
export function readBoolean(query: unknown, name: string, fallback: boolean): boolean {
  const raw = (query as Query)?.[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' ? parseBooleanWord(raw) : undefined;
  if (value === undefined) throw refusal(name, BOOLEAN_WORDS, raw);
  return value;
}

function refusal(name: string, allowed: string, raw: unknown): ProblemError {
  const given = Array.isArray(raw) ? ' (given more than once)' : `, got "${truncate(String(raw))}"`;
  return new ProblemError('invalid_parameter', `Query parameter "${name}" must be ${allowed}${given}.`);
}

function truncate(s: string): string {
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}

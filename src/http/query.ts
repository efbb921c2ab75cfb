import { BOOLEAN_WORDS, parseBooleanWord } from '../util/boolean-word.ts';
import { ProblemError } from './problem.ts';

type Query = Record<string, unknown>;

/** Unknown query parameters are refused so that a typo (`fromat=png`) never silently does the default. */
export function rejectUnknownQuery(query: unknown, allowed: readonly string[]): void {
  for (const name of Object.keys((query ?? {}) as Query)) {
    if (!allowed.includes(name)) {
      const hint = allowed.length ? ` Allowed: ${allowed.join(', ')}.` : ' This endpoint takes no query parameters.';
      throw new ProblemError('invalid_parameter', `Unknown query parameter "${truncate(name)}".${hint}`);
    }
  }
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

// Schema helpers shared by the upstream body schemas (fxtwitter/types.ts, syndication/types.ts):
// one validator per schema, compiled once, that reports the first path that does not fit.
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
export const OptNullable = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
/**
 * An X handle: the post's URL and every link to its author are built from it. X allows 15
 * characters today; a little room is left so a longer legacy handle still fits.
 */
export const HANDLE_PATTERN = '^[A-Za-z0-9_]{1,20}$';
export const Handle = Type.String({ pattern: HANDLE_PATTERN });
/** A [start, end) pair of code point offsets. */
export const Indices = Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 0 })]);

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

/** Compiles `schema` once; the returned function checks a parsed body against it. */
export function bodyValidator<S extends TSchema>(schema: S) {
  const compiled = Compile(schema);
  return (body: unknown): BodyCheck<Type.Static<S>> => {
    if (compiled.Check(body)) return { ok: true, value: body as Type.Static<S> };
    const first = compiled.Errors(body)[0];
    return { ok: false, path: first?.instancePath || '/', message: first?.message ?? 'does not fit' };
  };
}

// Route schemas validate without changing what a route does: the checks run after authentication
// (a bad key still answers 401 before a bad parameter) and refusals keep the problem codes.
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { ProblemError } from '../problem.ts';

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** TypeBox checks a copy; the route's own code still sees the request exactly as sent. */
const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  if (httpPart === 'querystring' && (schema as { [READ_BY_ROUTE]?: true })[READ_BY_ROUTE])
    return (data) => ({ value: data });
  const check = Compile(schema);
  return (data: unknown) => {
    // Query values arrive as strings: `includeStats=false` is checked as the boolean it means.
    // (Path schemas are strings already, and TypeBox's Convert cannot take the wildcard key `*`.)
    const value = httpPart === 'querystring' ? Value.Convert(schema, structuredClone(data ?? {})) : data;
    return check.Check(value) ? { value: data } : { error: [...check.Errors(value)] as unknown as Error };
  };
};

/** Answers are written as the handlers built them; the response schemas document them. */
const serializerCompiler: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

// Marks a query schema the route reads and judges itself (normalizing values first): it is
// documented, and not converted and checked a second time on every request.
const READ_BY_ROUTE = Symbol('read by route');

/** A query schema whose route reads and judges the query itself (screenshot options, Markdown flags). */
export function readByRoute<T extends TSchema>(schema: T): T {
  return { ...schema, [READ_BY_ROUTE]: true };
}

/** Route options that attach `schema` for validation, typing and the OpenAPI document. */
export function documented(schema: FastifySchema) {
  return { schema, attachValidation: true, validatorCompiler, serializerCompiler } as const;
}

/**
 * What the first issue asks for, in words. The validator's own text says "must be equal to
 * constant" without the constant, and of a union names only its first type ("must be string" for
 * an id that may be an integer too): the caller must read what would be accepted.
 */
function describeIssue(issues: readonly SchemaIssue[]): string {
  const [first] = issues;
  if (!first) return 'is not valid';
  if (first.keyword === 'const') return `must be ${JSON.stringify(first.params?.allowedValue)}`;
  const union = issues.some((i) => i.keyword === 'anyOf' && i.instancePath === first.instancePath);
  const types = issues.filter((i) => i.keyword === 'type' && i.instancePath === first.instancePath);
  if (union && types.length > 1) return `must be ${types.map((i) => String(i.params?.type)).join(' or ')}`;
  return first.message ?? 'is not valid';
}

/**
 * Throws the problem for a request its route schema refused. Call it where the route validates,
 * after its own checks, so their more precise messages come first.
 */
export function assertSchemaValid(request: FastifyRequest): void {
  const failure = request.validationError as
    | (Error & { validation?: SchemaIssue[]; validationContext?: string })
    | undefined;
  if (!failure) return;
  const issue = failure.validation?.[0];
  const path = issue?.instancePath.split('/').filter(Boolean) ?? [];
  const why = describeIssue(failure.validation ?? []);
  switch (failure.validationContext) {
    case 'querystring': {
      const unknown = issue?.keyword === 'additionalProperties' ? ` ${String(issue.params?.additionalProperties)}` : '';
      const name = path[0] ?? unknown.trim();
      throw new ProblemError('invalid_parameter', name ? `Query parameter "${name}" ${why}.` : `The query ${why}.`);
    }
    case 'params':
      throw new ProblemError('invalid_post_id', `The post id in the path ${why}.`);
    default:
      if (issue?.keyword === 'maxItems') throw new ProblemError('too_many_ids', `"${path.join('.')}" ${why}.`);
      throw new ProblemError('invalid_body', path.length ? `"${path.join('.')}" ${why}.` : `The body ${why}.`);
  }
}

import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { authorize, setQuotaHeaders } from '../metered.ts';
import { rejectUnknownQuery } from '../query.ts';
import { usageSchema } from '../schemas/usage.ts';
import { assertSchemaValid, documented } from '../schemas/validation.ts';

export function registerUsageRoute(app: FastifyInstance, c: Container): void {
  app.get('/api/v1/usage', documented(usageSchema), async (request, reply) => {
    const caller = await authorize(c, request, reply, 'usage');
    rejectUnknownQuery(request.query, []);
    assertSchemaValid(request);
    const usage = await c.quota.usage(caller.account);
    // As on every metered answer: a client (and an MCP result's _meta) reads the quota one way.
    setQuotaHeaders(reply, usage);
    return reply.header('Cache-Control', 'no-store').send({
      remaining: usage.remaining,
      limit: usage.limit,
      plan: usage.plan,
      used: usage.used,
      periodStart: new Date(usage.periodStart).toISOString(),
      periodEnd: usage.periodEnd === null ? null : new Date(usage.periodEnd).toISOString(),
    });
  });
}

import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { problemBody } from '../problem.ts';
import { healthSchema, readySchema } from '../schemas/service.ts';
import { documented } from '../schemas/validation.ts';

export function registerHealthRoutes(app: FastifyInstance, c: Container): void {
  app.get('/healthz', documented(healthSchema), async (_request, reply) =>
    reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', documented(readySchema), async (request, reply) => {
    const checks = await c.checkReadiness();
    reply.header('Cache-Control', 'no-store');
    if (Object.values(checks).every((v) => v === 'ok')) return reply.send({ status: 'ready', checks });
    const failing = Object.entries(checks)
      .filter(([, v]) => v !== 'ok')
      .map(([k, v]) => (v === 'warming' ? `${k} warming up` : `${k} unreachable`));
    return reply
      .code(503)
      .type('application/problem+json')
      .send({ ...problemBody('service_unavailable', `Not ready: ${failing.join(', ')}.`, request.id), checks });
  });
}
